import { contributionHistoryQuerySchema, formatPaymentReference, formatPeriod } from '@aporta/domain';
import { Anchor, Badge, Button, Card, Group, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Money, Period } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { displayCui } from '../../lib/format.ts';
import { usePlanillaOptions } from '../../lib/referenceOptions.ts';
import { issueText } from '../../lib/server-messages.ts';
import { useCan } from '../../lib/useCan.ts';
import { type ContributionShare, useContributorContributions, useEntityContributions } from './api.ts';

const GapBadge = () => {
  const { t } = useTranslation();
  return (
    <Badge color="red" variant="light" c="var(--mantine-color-text)">
      {t('planillas.history.gap')}
    </Badge>
  );
};

/** Whether a share of a declared month is paid (its orders paid in full); null: not known. */
const PaidBadge = ({ paid }: { paid: boolean | null }) => {
  const { t } = useTranslation();
  if (paid === null) return <>{t('planillas.history.paidUnknown')}</>;
  return (
    <Badge color={paid ? 'teal' : 'orange'} variant="light" c="var(--mantine-color-text)" data-testid="month-paid">
      {paid ? t('planillas.history.paidYes') : t('planillas.history.paidNo')}
    </Badge>
  );
};

/**
 * One share of a month (laboral or patronal): paid or not on its own, and the order that charges it — a
 * link to the order when the user may read orders (issue 28: the employee share paid reads paid even while
 * the employer's order is still owed).
 */
function ShareCell({ share, kind, linked }: { share: ContributionShare; kind: 'employee' | 'employer'; linked: boolean }) {
  const { t } = useTranslation();
  const { order } = share;
  const inAgreement = !share.paid && order?.state === 'CONVENIDA';
  const reference = order ? <span dir="ltr">{formatPaymentReference(order.reference)}</span> : null;
  return (
    <Stack gap={2} align="flex-start">
      <Badge
        color={share.paid ? 'teal' : inAgreement ? 'blue' : 'orange'}
        variant="light"
        c="var(--mantine-color-text)"
        data-testid={`month-paid-${kind}`}
      >
        {share.paid
          ? t('planillas.history.paidYes')
          : inAgreement
            ? t('planillas.history.inAgreement')
            : t('planillas.history.paidNo')}
      </Badge>
      {order && (
        <Text size="xs">
          {t('planillas.history.orderLabel')}{' '}
          {linked ? (
            <Anchor component={Link} to={`/ordenes-pago/${order.id}`} size="xs" data-testid={`month-order-${kind}`}>
              {reference}
            </Anchor>
          ) : (
            reference
          )}
        </Text>
      )}
    </Stack>
  );
}

/**
 * A contributor's months (by CUI): entity, salary, amount, planilla, each share paid or not with its order,
 * and the gaps. `share` picks the amount column.
 */
export function ContributorContributions({ cui, share }: { cui: string; share: 'employee' | 'employer' }) {
  const { t } = useTranslation();
  const can = useCan();
  const linked = can('payment-orders', 'READ');
  const history = useContributorContributions({ cui });
  return (
    <QueryState query={history}>
      {() => {
        const h = history.data!;
        if (!h.months.length) return <Text c="dimmed">{t('planillas.history.empty')}</Text>;
        return (
          <Stack gap="sm">
            <Group gap="lg">
              <Text size="sm">
                {t('planillas.history.totalEmployee')}: <Money value={h.totals.employee} />
              </Text>
              <Text size="sm">
                {t('planillas.history.totalEmployer')}: <Money value={h.totals.employer} />
              </Text>
              <Text size="sm" c={h.gaps.length ? 'red.9' : undefined}>
                {t('planillas.history.gaps', { count: h.gaps.length })}
              </Text>
            </Group>
            <Table.ScrollContainer minWidth={760}>
              <Table striped data-testid="contribution-history">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('planillas.fields.period')}</Table.Th>
                    <Table.Th>{t('planillas.fields.entity')}</Table.Th>
                    <Table.Th ta="right">{t('planillas.fields.salary')}</Table.Th>
                    <Table.Th ta="right">
                      {share === 'employee' ? t('planillas.fields.employee') : t('planillas.fields.employer')}
                    </Table.Th>
                    <Table.Th>{t('planillas.history.planilla')}</Table.Th>
                    <Table.Th>{t('planillas.history.employeeShare')}</Table.Th>
                    <Table.Th>{t('planillas.history.employerShare')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {h.months.map((m, i) => (
                    <Table.Tr key={`${m.period}-${m.planillaId ?? i}`}>
                      <Table.Td>
                        <Period value={m.period} />
                      </Table.Td>
                      <Table.Td>{m.gap ? <GapBadge /> : m.entityName}</Table.Td>
                      <Table.Td ta="right">{m.gap ? '' : <Money value={m.salary} />}</Table.Td>
                      <Table.Td ta="right">
                        {m.gap ? '' : <Money value={share === 'employee' ? m.employeeAmount : m.employerAmount} />}
                      </Table.Td>
                      <Table.Td>
                        {m.planillaId && (
                          <Anchor component={Link} to={`/planilla/vista/${m.planillaId}`}>
                            {m.planillaType ? t(`planillas.types.${m.planillaType}`) : ''} {formatPeriod(m.period)}
                          </Anchor>
                        )}
                      </Table.Td>
                      <Table.Td>
                        {m.employeeShare ? <ShareCell share={m.employeeShare} kind="employee" linked={linked} /> : ''}
                      </Table.Td>
                      <Table.Td>
                        {m.employerShare ? <ShareCell share={m.employerShare} kind="employer" linked={linked} /> : ''}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        );
      }}
    </QueryState>
  );
}

function EntityContributions({ entityId }: { entityId: number }) {
  const { t } = useTranslation();
  const history = useEntityContributions({ entityId });
  return (
    <QueryState query={history}>
      {() => {
        const h = history.data!;
        if (!h.months.length) return <Text c="dimmed">{t('planillas.history.empty')}</Text>;
        return (
          <Stack gap="sm">
            <Text size="sm" c={h.gaps.length ? 'red.9' : undefined}>
              {t('planillas.history.gaps', { count: h.gaps.length })}
            </Text>
            <Table.ScrollContainer minWidth={640}>
              <Table striped data-testid="entity-history">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('planillas.fields.period')}</Table.Th>
                    <Table.Th ta="right">{t('planillas.fields.employees')}</Table.Th>
                    <Table.Th ta="right">{t('planillas.fields.totalSalary')}</Table.Th>
                    <Table.Th ta="right">{t('planillas.fields.employee')}</Table.Th>
                    <Table.Th ta="right">{t('planillas.fields.employer')}</Table.Th>
                    <Table.Th>{t('planillas.history.employeeShare')}</Table.Th>
                    <Table.Th>{t('planillas.history.employerShare')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {h.months.map((m) => (
                    <Table.Tr key={m.period}>
                      <Table.Td>
                        <Period value={m.period} />
                      </Table.Td>
                      <Table.Td ta="right">{m.gap ? <GapBadge /> : m.employees}</Table.Td>
                      <Table.Td ta="right">{m.gap ? '' : <Money value={m.salary} />}</Table.Td>
                      <Table.Td ta="right">{m.gap ? '' : <Money value={m.employeeAmount} />}</Table.Td>
                      <Table.Td ta="right">{m.gap ? '' : <Money value={m.employerAmount} />}</Table.Td>
                      <Table.Td>{m.gap ? '' : <PaidBadge paid={m.employeePaid} />}</Table.Td>
                      <Table.Td>{m.gap ? '' : <PaidBadge paid={m.employerPaid} />}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        );
      }}
    </QueryState>
  );
}

/** `/planilla/historial-cuotas-laborales`: a contributor's employee contributions month by month, by CUI. */
export function EmployeeHistoryPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const cui = params.get('cui');
  const [text, setText] = useState(cui ?? '');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const r = contributionHistoryQuerySchema.shape.cui.safeParse(text);
    if (!r.success) return setError(issueText(r.error.issues[0].message));
    setError(null);
    setParams({ cui: r.data }, { replace: true });
  };
  return (
    <Stack>
      <PageHeader title={t('planillas.history.employeeTitle')} description={t('planillas.history.employeeDescription')} />
      <Card withBorder>
        <form onSubmit={submit}>
          <Group align="end">
            <TextInput
              label="CUI"
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              error={error}
              w={260}
              data-testid="history-cui"
            />
            <Button type="submit" leftSection={<IconSearch size={16} />}>
              {t('planillas.history.search')}
            </Button>
          </Group>
        </form>
      </Card>
      {cui && (
        <Card withBorder>
          <Text fw={600} mb="sm" dir="ltr">
            CUI {displayCui(cui)}
          </Text>
          <ContributorContributions cui={cui} share="employee" />
        </Card>
      )}
    </Stack>
  );
}

/** `/planilla/historial-cuotas-patronales`: an entity's employer contributions month by month, with gaps. */
export function EmployerHistoryPage() {
  const { t } = useTranslation();
  const options = usePlanillaOptions();
  const [entityId, setEntityId] = useState<string | null>(null);
  const entities = options.data?.entities ?? [];
  const chosen = entityId ?? (entities.length === 1 ? String(entities[0].id) : null);
  return (
    <Stack>
      <PageHeader title={t('planillas.history.employerTitle')} description={t('planillas.history.employerDescription')} />
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('planillas.fields.entity')}
            searchable
            data={entities.map((e) => ({ value: String(e.id), label: `${e.name} (${e.code})` }))}
            value={chosen}
            onChange={setEntityId}
          />
        </SimpleGrid>
      </Card>
      {chosen && (
        <Card withBorder>
          <EntityContributions entityId={Number(chosen)} />
        </Card>
      )}
    </Stack>
  );
}
