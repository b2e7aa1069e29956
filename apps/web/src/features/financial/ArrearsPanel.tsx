import type { ArrearsRow } from '@aporta/domain';
import { Anchor, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { Money } from '../../components/Money.tsx';
import { errorText } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { useArrears } from './api.ts';

const buckets = ['d1_30', 'd31_90', 'd91_180', 'd181'] as const;

/**
 * The arrears ranking: entities by overdue amount and age buckets, by region (the delegates' collection
 * list), with export; a case is opened from a row in one click (`onOpenCase`, when the legal module allows it).
 */
export function ArrearsPanel({ onOpenCase }: { onOpenCase?: (row: ArrearsRow) => void }) {
  const { t } = useTranslation();
  const can = useCan();
  const [asOf, setAsOf] = useState<string | null>(null);
  const [region, setRegion] = useState<string | null>(null);
  const q = useArrears(asOf);
  const rows = (q.data?.items ?? []).filter((r) => !region || r.regionName === region);
  const regions = [...new Set((q.data?.items ?? []).map((r) => r.regionName))].sort();
  return (
    <Stack data-testid="arrears">
      <Group align="flex-end" wrap="wrap" justify="space-between">
        <Group align="flex-end" wrap="wrap">
          <DateField label={t('financial.asOf')} description={t('financial.asOfHint')} value={asOf} onChange={setAsOf} w={200} />
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
