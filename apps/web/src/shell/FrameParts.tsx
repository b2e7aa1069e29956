import type { AppInfo } from '@aporta/domain';
import { SHELL_TIMINGS } from '@aporta/domain';
import { ActionIcon, Loader, Text, Transition } from '@mantine/core';
import { useWindowScroll } from '@mantine/hooks';
import { IconArrowUp } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Current year, copyright with the product acronym, and the development credit (both configuration). */
export function Footer({ info }: { info: AppInfo | undefined }) {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className="layout-footer" data-testid="footer">
      <Text size="sm" c="dimmed">
        © {year} {info?.acronym ?? ''}. {t('shell.rights')}
      </Text>
      <Text size="sm" c="dimmed" data-testid="footer-credit">
        {info?.credit ?? ''}
      </Text>
    </footer>
  );
}

/** Appears after 100 px of scroll (spec section 9). */
export function BackToTop() {
  const { t } = useTranslation();
  const [scroll, scrollTo] = useWindowScroll();
  return (
    <Transition mounted={scroll.y > SHELL_TIMINGS.backToTopAfterPx} transition="slide-up" duration={150}>
      {(style) => (
        <ActionIcon
          className="back-to-top"
          style={style}
          size={44}
          radius="xl"
          variant="filled"
          onClick={() => scrollTo({ y: 0 })}
          aria-label={t('shell.backToTop')}
          data-testid="back-to-top"
        >
          <IconArrowUp size={22} aria-hidden="true" />
        </ActionIcon>
      )}
    </Transition>
  );
}

/**
 * Calls `fn` `ms` after the element is on screen: the count starts at the first frame after the commit
 * (a busy page may run the effect well before it draws), so a spinner is seen for its whole time.
 */
function afterShown(ms: number, fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn, ms);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** Full-page spinner when the preloader is enabled; hides 1 s after it is on screen (spec section 9). */
export function Preloader({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(enabled);
  useEffect(() => {
    if (!enabled) {
      setVisible(false);
      return;
    }
    setVisible(true);
    return afterShown(SHELL_TIMINGS.preloaderMs, () => setVisible(false));
  }, [enabled]);
  if (!visible) return null;
  return (
    <div className="preloader" data-testid="preloader" role="status" aria-label={t('common.loading')}>
      <Loader size="xl" />
    </div>
  );
}

/**
 * Shown for 1 s after a theme change (spec section 4). The second is counted from when the spinner is on
 * screen (`afterShown`), then `onDone(seq)` ends the change; a newer change (seq) starts the second again.
 */
export function ThemeSpinner({ visible, seq, onDone }: { visible: boolean; seq: number; onDone: (seq: number) => void }) {
  const { t } = useTranslation();
  useEffect(() => {
    if (!visible) return;
    return afterShown(SHELL_TIMINGS.themeSpinnerMs, () => onDone(seq));
  }, [visible, seq, onDone]);
  if (!visible) return null;
  return (
    <div className="theme-spinner" data-testid="theme-spinner" role="status" aria-label={t('shell.settings.applyingTheme')}>
      <Loader size="lg" />
    </div>
  );
}
