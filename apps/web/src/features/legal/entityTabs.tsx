import { Anchor, Button, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Money } from '../../components/Money.tsx';
import type { EntityTab } from '../../lib/entityTabs.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { useOpenCaseMutation } from '../../lib/legalCases.ts';
import { useCan } from '../../lib/useCan.ts';
import { useCases } from './api.ts';
import { day, StageBadge } from './components.tsx';

/** A municipal entity's collection cases, and opening one. */
function EntityCases({ entityId }: { entityId: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const q = useCases({ entityId: String(entityId), pageSize: 50 });
  const open = useOpenCaseMutation();
  const items = q.data?.items ?? [];
  return (
    <Stack data-testid="entity-cases">
      {can('legal-module', 'CREATE') && !items.some((c) => c.stage !== 'CERRADO') && (
        <Button
          variant="default"
          w="fit-content"
          loading={open.isPending}
          onClick={() =>
            open.mutate(entityId, {
              onSuccess: (c) => navigate(`/contributors/legal-module/${c.id}`),
              onError: (err) => showApiError(err),
            })
          }
        >
          {t('legal.open')}
        </Button>
      )}
      {!items.length ? (
        <Text c="dimmed">{q.isPending ? t('legal.loading') : t('legal.noneForEntity')}</Text>
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('legal.fields.number')}</Table.Th>
              <Table.Th>{t('legal.fields.stage')}</Table.Th>
              <Table.Th>{t('legal.fields.openedOn')}</Table.Th>
              <Table.Th ta="right">{t('legal.fields.amountNow')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/contributors/legal-module/${c.id}`}>
                    {c.number}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <StageBadge stage={c.stage} />
                </Table.Td>
                <Table.Td>{day(c.openedOn)}</Table.Td>
                <Table.Td ta="right">
                  <Money value={c.amountNow} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** The entity's page gains its legal collection cases. */
export const legalEntityTabs: readonly EntityTab[] = [
  {
    value: 'legal',
    labelKey: 'legal.entityTab',
    order: 30,
    permission: { resource: 'legal-module', action: 'READ' },
    render: (entityId) => <EntityCases entityId={entityId} />,
  },
];
