import { Group, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, parseLanguage } from '../lib/i18n.ts';

/**
 * Legal documents (payment orders, 7-B receipts, statements, certificates, agreements, letters, signed
 * documents, payroll files), list exports and upload templates are issued in Spanish on purpose, the
 * institution's language (issue 27). Beside their downloads, a screen in another language says so, so that
 * nobody takes the file for a missing translation. Nothing in Spanish. Texts: `document-language/locales`.
 */
export function useSpanishDocumentHint(): { label: string; explanation: string } | null {
  const { t, i18n } = useTranslation();
  if (parseLanguage(i18n.language) === DEFAULT_LANGUAGE) return null;
  return { label: t('documentLanguage.label'), explanation: t('documentLanguage.explanation') };
}

/** «In Spanish» (dimmed, xs) with an info icon; its tooltip, on hover, focus or touch, tells why. */
export function SpanishDocumentHint() {
  const hint = useSpanishDocumentHint();
  if (!hint) return null;
  return (
    <Tooltip label={hint.explanation} multiline maw={280} withArrow events={{ hover: true, focus: true, touch: true }}>
      <Group
        component="span"
        gap={4}
        wrap="nowrap"
        tabIndex={0}
        c="dimmed"
        style={{ display: 'inline-flex', cursor: 'help', whiteSpace: 'nowrap' }}
        data-testid="spanish-document"
      >
        <IconInfoCircle size={14} aria-hidden style={{ flexShrink: 0 }} />
        <Text span size="xs" c="dimmed">
          {hint.label}
        </Text>
      </Group>
    </Tooltip>
  );
}

/**
 * The same marker for a download inside a Menu: put it in the item's `rightSection`. The item itself
 * takes the focus, so no tooltip of its own: the explanation is the marker's title.
 */
export function SpanishDocumentMenuHint() {
  const hint = useSpanishDocumentHint();
  if (!hint) return null;
  return (
    <Text span size="xs" c="dimmed" title={hint.explanation} data-testid="spanish-document">
      {hint.label}
    </Text>
  );
}
