import '@mantine/spotlight/styles.css';
import type { MenuItem } from '@aporta/domain';
import { Group, Loader, Text } from '@mantine/core';
import { Spotlight, spotlight } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  getSearchProviders,
  runSearchProviders,
  type SearchResult,
  subscribeSearchProviders,
} from '../../lib/searchProviders.ts';
import { MenuIcon } from '../menuIcons.tsx';
import { fold, menuLeaves } from '../menuModel.ts';

export const openCommandPalette = () => spotlight.open();

/**
 * The command palette (Ctrl+K, or the topbar search box): the menu entries the user may open, plus
 * records from every registered search provider (searching…, nothing found, a search that failed are
 * said). The list is at most 320 px high (spec section 9).
 */
export function CommandPalette({ menu }: { menu: MenuItem[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const providers = useSyncExternalStore(subscribeSearchProviders, getSearchProviders);
  const [records, setRecords] = useState<{ group: string; results: SearchResult[] }[]>([]);
  /** The query whose records are shown (or being fetched), and whether some provider failed on it. */
  const [status, setStatus] = useState<'idle' | 'loading' | 'done' | 'error'>('idle');
  const [failed, setFailed] = useState<string[]>([]);

  const pages = useMemo(
    () =>
      menuLeaves(menu).map(({ item, parents }) => ({
        item,
        label: t(item.label),
        description: parents.map((p) => t(p)).join(' › '),
      })),
    [menu, t],
  );
  const q = fold(query);
  const matches = q ? pages.filter((p) => fold(`${p.label} ${p.description}`).includes(q)) : pages;

  // Records are searched after a pause in typing (250 ms); a newer query cancels the one in flight.
  useEffect(() => {
    const eligible = providers.some((p) => query.trim().length >= (p.minLength ?? 2));
    if (!eligible) {
      setRecords([]);
      setFailed([]);
      setStatus('idle');
      return;
    }
    setStatus('loading');
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      runSearchProviders(query, ctrl.signal)
        .then(({ groups, failed: down }) => {
          if (ctrl.signal.aborted) return;
          setRecords(groups.map(({ provider, results }) => ({ group: t(provider.group), results })));
          setFailed(down.map((p) => t(p.group)));
          setStatus('done');
        })
        .catch(() => {
          if (ctrl.signal.aborted) return;
          setRecords([]);
          setStatus('error');
        });
    }, 250);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [query, providers, t]);

  const go = (link?: string) => {
    if (link) navigate(link);
  };

  return (
    <Spotlight.Root query={query} onQueryChange={setQuery} shortcut={['mod + K']} scrollable maxHeight={320} radius="md">
      <Spotlight.Search
        placeholder={t('shell.paletteSearch')}
        aria-label={t('shell.paletteSearch')}
        leftSection={<IconSearch size={18} aria-hidden="true" />}
        data-testid="palette-input"
      />
      <Spotlight.ActionsList data-testid="palette-list" mah={320}>
        {matches.length > 0 && (
          <Spotlight.ActionsGroup label={t('shell.palettePages')}>
            {matches.map((p) => (
              <Spotlight.Action
                key={p.item.id}
                label={p.label}
                description={p.description || undefined}
                leftSection={<MenuIcon name={p.item.icon} size={18} />}
                onClick={() => go(p.item.link)}
              />
            ))}
          </Spotlight.ActionsGroup>
        )}
        {records.map((g) => (
          <Spotlight.ActionsGroup key={g.group} label={g.group}>
            {g.results.map((r) => (
              <Spotlight.Action
                key={r.id}
                label={r.label}
                description={r.description}
                onClick={() => (r.onSelect ? r.onSelect() : go(r.link))}
              />
            ))}
          </Spotlight.ActionsGroup>
        ))}
        {status === 'loading' && (
          <Group gap="xs" px="md" py="xs" data-testid="palette-loading" aria-live="polite">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              {t('shell.paletteSearching')}
            </Text>
          </Group>
        )}
        {(status === 'error' || (status === 'done' && failed.length > 0)) && (
          <Text size="sm" c="red" px="md" py="xs" role="status" data-testid="palette-error">
            {status === 'error' ? t('shell.paletteError') : t('shell.paletteFailed', { groups: failed.join(', ') })}
          </Text>
        )}
        {matches.length === 0 && status !== 'loading' && records.every((g) => g.results.length === 0) && (
          <Spotlight.Empty>{t('shell.paletteEmpty')}</Spotlight.Empty>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
