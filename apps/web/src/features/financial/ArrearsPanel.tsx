import type { ArrearsRow } from '@aporta/domain';
import { Anchor, Button, Checkbox, Group, Select, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { Money } from '../../components/Money.tsx';
import { errorText } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { useArrears } from './api.ts';
import { CampaignStart } from './CampaignStart.tsx';

const buckets = ['d1_30', 'd31_90', 'd91_180', 'd181'] as const;

/**
 * The arrears ranking: entities by overdue amount and age buckets, by region (the delegates' collection
 * list), with export; a case is opened from a row in one click (`onOpenCase`, when the legal module allows it).
 * Whoever may start campaigns of arrears notices (financial-module CREATE) ticks entities and sends them
 * a notice as of the ranking's day (CampaignStart).
 */
export function ArrearsPanel({ onOpenCase }: { onOpenCase?: (row: ArrearsRow) => void }) {
  const { t } = useTranslation();
  const can = useCan();
  const [asOf, setAsOf] = useState<string | null>(null);
  const [region, setRegion] = useState<string | null>(null);
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const canCampaign = can('financial-module', 'CREATE');
  const q = useArrears(asOf);
  const rows = (q.data?.items ?? []).filter((r) => !region || r.regionName === region);
  const regions = [...new Set((q.data?.items ?? []).map((r) => r.regionName))].sort();
  const selected = rows.filter((r) => picked.has(r.entityId));
  const allPicked = rows.length > 0 && selected.length === rows.length;
  const toggle = (id: number) =>
    setPicked((cur) => {
      const next = new Set(cur);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const changeAsOf = (v: string | null) => {
    setAsOf(v);
    setPicked(new Set());
  };
  return (
    <Stack data-testid="arrears">
      <Group align="flex-end" wrap="wrap" justify="space-between">
        <Group align="flex-end" wrap="wrap">
          <DateField
            label={t('financial.asOf')}
            description={t('financial.asOfHint')}
            value={asOf}
            onChange={changeAsOf}
            w={200}
          />
          <Select
            label={t('financial.region')}
            placeholder={t('financial.allRegions')}
            data={regions}
            value={region}
            onChange={setRegion}
            clearable
            clearButtonProps={{ 'aria-label': t('financial.clearRegion') }}
            w={{ base: '100%', sm: 260 }}
          />
        </Group>
        {can('financial-module', 'EXPORT') && <ExportButtons path="/api/financial/arrears/export" query={{ asOf }} />}
      </Group>
      {canCampaign && <CampaignStart selected={selected} asOf={asOf} onStarted={() => setPicked(new Set())} />}
      {q.isError && <Text c="red">{errorText(q.error)}</Text>}
      {q.isPending ? (
        <Text c="dimmed">{t('financial.loading')}</Text>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{t('financial.noArrears')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped data-testid="arrears-table">
            <Table.Thead>
              <Table.Tr>
                {canCampaign && (
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label={t('financial.campaign.pickAll')}
                      checked={allPicked}
                      indeterminate={selected.length > 0 && !allPicked}
                      onChange={() => setPicked(allPicked ? new Set() : new Set(rows.map((r) => r.entityId)))}
                    />
                  </Table.Th>
                )}
                <Table.Th>#</Table.Th>
                <Table.Th>{t('financial.entity')}</Table.Th>
                <Table.Th>{t('financial.region')}</Table.Th>
                <Table.Th ta="right">{t('financial.orders')}</Table.Th>
                {buckets.map((b) => (
                  <Table.Th key={b} ta="right">
                    {t(`financial.buckets.${b}`)}
                  </Table.Th>
                ))}
                <Table.Th ta="right">{t('financial.total')}</Table.Th>
                {onOpenCase && <Table.Th>{t('financial.legal')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.entityId}>
                  {canCampaign && (
                    <Table.Td>
                      <Checkbox
                        aria-label={t('financial.campaign.pick', { entity: r.entityName })}
                        checked={picked.has(r.entityId)}
                        onChange={() => toggle(r.entityId)}
                      />
                    </Table.Td>
                  )}
                  <Table.Td>{r.rank}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/administrative/municipal-entities/${r.entityId}`} size="sm">
                      {r.entityName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{r.regionName}</Table.Td>
                  <Table.Td ta="right">{r.orders}</Table.Td>
                  {buckets.map((b) => (
                    <Table.Td key={b} ta="right">
                      <Money value={r[b]} />
                    </Table.Td>
                  ))}
                  <Table.Td ta="right" fw={600}>
                    <Money value={r.total} />
                  </Table.Td>
                  {onOpenCase && (
                    <Table.Td>
                      {r.legalCaseId ? (
                        <Anchor component={Link} to={`/contributors/legal-module/${r.legalCaseId}`} size="sm">
                          {t('financial.seeCase')}
                        </Anchor>
                      ) : (
                        <Button size="xs" variant="default" onClick={() => onOpenCase(r)}>
                          {t('financial.openCase')}
                        </Button>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {q.data && (
        <Text size="sm" c="dimmed">
          {t('financial.arrearsTotal', { count: q.data.totals.entities })} <Money value={q.data.totals.total} />
        </Text>
      )}
    </Stack>
  );
}
