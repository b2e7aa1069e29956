import '@mantine/spotlight/styles.css';
import type { MenuItem } from '@aporta/domain';
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
 * records from every registered search provider. The list is at most 320 px high (spec section 9).
 */
export function CommandPalette({ menu }: { menu: MenuItem[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const providers = useSyncExternalStore(subscribeSearchProviders, getSearchProviders);
  const [records, setRecords] = useState<{ group: string; results: SearchResult[] }[]>([]);

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

  useEffect(() => {
    if (!providers.length || query.trim().length < 2) {
      setRecords([]);
      return;
    }
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      runSearchProviders(query, ctrl.signal)
        .then((r) => {
          if (!ctrl.signal.aborted) setRecords(r.map(({ provider, results }) => ({ group: t(provider.group), results })));
        })
        .catch(() => undefined);
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
        {matches.length === 0 && records.every((g) => g.results.length === 0) && (
          <Spotlight.Empty>{t('shell.paletteEmpty')}</Spotlight.Empty>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
