import { pensionTypeLabels } from '@aporta/domain';
import { Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Money } from '../../components/Money.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { displayCui } from '../../lib/format.ts';
import { useCan } from '../../lib/useCan.ts';
import { useFindPensions } from './api.ts';
import { IsoDate, PensionStateBadge } from './components.tsx';

/** The contributor page's pensions tab: every pension of the contributor, theirs or a survivor's. */
export function ContributorPensions({ contributorId }: { contributorId: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const pensions = useFindPensions({ contributorId: String(contributorId), page: 1, pageSize: 50, sort: 'startDate' });
  return (
    <Stack>
      {can('passive-classes', 'CREATE') && (
        <Group justify="flex-end">
          <Button component={Link} to="/contributors/passive-classes/new" variant="light" leftSection={<IconPlus size={16} />}>
            {t('pensions.new')}
          </Button>
        </Group>
      )}
      <QueryState query={pensions}>
        {pensions.data?.items.length ? (
          <Table.ScrollContainer minWidth={640}>
            <Table striped withTableBorder data-testid="contributor-pensions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('pensions.fields.pensioner')}</Table.Th>
                  <Table.Th>{t('pensions.fields.type')}</Table.Th>
                  <Table.Th>{t('pensions.fields.state')}</Table.Th>
                  <Table.Th>{t('pensions.fields.startDate')}</Table.Th>
                  <Table.Th ta="right">{t('pensions.fields.monthlyAmount')}</Table.Th>
                  <Table.Th>{t('pensions.fields.survivalDue')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {pensions.data.items.map((p) => (
                  <Table.Tr key={p.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/contributors/passive-classes/${p.id}`}>
                        {p.fullName}
                      </Anchor>{' '}
                      <Text span size="xs" c="dimmed">
                        {displayCui(p.cui)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{pensionTypeLabels[p.type]}</Table.Td>
                    <Table.Td>
                      <PensionStateBadge state={p.state} />
                    </Table.Td>
                    <Table.Td>
                      <IsoDate value={p.startDate} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Money value={p.monthlyAmount} />
                    </Table.Td>
                    <Table.Td>
                      <IsoDate value={p.survivalDue} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Text size="sm">{t('pensions.contributorNone')}</Text>
        )}
      </QueryState>
    </Stack>
  );
}
