import {
  type AvailableTransition,
  amountChangeInputSchema,
  formatPeriod,
  type PensionDetail,
  payrollLineKindLabels,
  payrollStateLabels,
  pensionStates,
  pensionTypeLabels,
  relationshipLabels,
  survivalMethodLabels,
  suspensionReasonLabels,
} from '@aporta/domain';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconEdit, IconFileText, IconHeartbeat, IconId, IconPlus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { Money } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { RecordHistory } from '../../components/RecordHistory.tsx';
import { NotAuthorizedPage } from '../../components/RequirePermission.tsx';
import { SpanishDocumentHint } from '../../components/SpanishDocumentHint.tsx';
import { TransitionActions } from '../../components/TransitionActions.tsx';
import { TransitionHistory } from '../../components/TransitionHistory.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { displayCui, formatDateTime } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  type AmountChange,
  downloadSurvivalLetter,
  useChangeAmount,
  usePension,
  usePensionChecks,
  usePensionPayments,
  usePensionTransitions,
  useRenapPensionCheck,
  useTransitionPension,
} from './api.ts';
import { CheckModal } from './CheckModal.tsx';
import { ActLink, IsoDate, PensionStateBadge, SurvivalStatusBadge } from './components.tsx';

const Field = ({ label, children }: { label: string; children: ReactNode }) => (
  <div>
    <Text size="xs" c="dimmed">
      {label}
    </Text>
    <Text size="sm" component="div">
      {children}
    </Text>
  </div>
);

/** A pension's page: its data, beneficiaries, amounts, state, survival checks, payments and history. */
export function PensionPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const can = useCan();
  const pension = usePension(id);
  const [checkOpen, setCheckOpen] = useState(false);
  const renap = useRenapPensionCheck(id);
  const p = pension.data;
  if (!can('passive-classes', 'READ')) return <NotAuthorizedPage />;
  const notFound = (
    <Alert color="red">
      {pension.error?.message ?? t('pensions.notFound')}{' '}
      <Anchor component={Link} to="/contributors/passive-classes">
        {t('pensions.list.title')}
      </Anchor>
    </Alert>
  );
  if (!p)
    return (
      <QueryState query={pension} notFound={notFound}>
        {notFound}
      </QueryState>
    );
  const open = p.state !== 'FINALIZADA';
  const runRenap = () =>
    renap.mutate(undefined, {
      onSuccess: (r) => {
        if (r.warning) notifyError(new Error(r.warning));
        else notifySuccess(r.deathDate ? t('pensions.renap.death', { date: r.deathDate }) : t('pensions.renap.alive'));
      },
      onError: notifyError,
    });
  return (
    <>
      <PageHeader title={p.fullName} description={`${pensionTypeLabels[p.type]} · ${displayCui(p.cui)}`} mb="md">
        <PensionStateBadge state={p.state} />
        {p.survivalStatus && <SurvivalStatusBadge status={p.survivalStatus} />}
        {can('supervivencia', 'EXPORT') && open && (
          <Button
            variant="light"
            leftSection={<IconFileText size={16} />}
            onClick={() => downloadSurvivalLetter(p.id).catch(notifyError)}
          >
            {t('pensions.letter')}
          </Button>
        )}
        {can('supervivencia', 'EXPORT') && open && <SpanishDocumentHint />}
        {can('supervivencia', 'CREATE') && open && (
          <>
            <Button variant="light" leftSection={<IconId size={16} />} loading={renap.isPending} onClick={runRenap}>
              {t('pensions.renap.check')}
            </Button>
            <Button leftSection={<IconHeartbeat size={16} />} onClick={() => setCheckOpen(true)}>
              {t('pensions.check.register')}
            </Button>
          </>
        )}
        {can('passive-classes', 'UPDATE') && open && (
          <Button
            component={Link}
            to={`/contributors/passive-classes/${p.id}/edit`}
            variant="default"
            leftSection={<IconEdit size={16} />}
          >
            {t('pensions.edit')}
          </Button>
        )}
      </PageHeader>
      <Stack>
        <Card withBorder>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
            <Field label="CUI">{displayCui(p.cui)}</Field>
            <Field label={t('pensions.fields.type')}>{pensionTypeLabels[p.type]}</Field>
            <Field label={t('pensions.fields.contributor')}>
              {can('contributors', 'READ') ? (
                <Anchor component={Link} to={`/contributors/${p.contributorId}`}>
                  {p.contributorName}
                </Anchor>
              ) : (
                p.contributorName
              )}
            </Field>
            <Field label={t('pensions.fields.entity')}>{p.entityName ?? '—'}</Field>
            <Field label={t('pensions.fields.resolutionNumber')}>{p.resolutionNumber}</Field>
            <Field label={t('pensions.fields.resolutionDate')}>
              <IsoDate value={p.resolutionDate} />
            </Field>
            <Field label={t('pensions.fields.startDate')}>
              <IsoDate value={p.startDate} />
            </Field>
            <Field label={t('pensions.fields.endDate')}>
              <IsoDate value={p.endDate} />
            </Field>
            <Field label={t('pensions.fields.monthlyAmount')}>
              <Money value={p.monthlyAmount} />
            </Field>
            <Field label={t('pensions.fields.bankAccount')}>{p.bankAccount}</Field>
            <Field label={t('pensions.fields.birthDate')}>
              <IsoDate value={p.birthDate} />
            </Field>
            <Field label={t('pensions.fields.lastCheck')}>
              <IsoDate value={p.lastCheckDate} />
            </Field>
            <Field label={t('pensions.fields.survivalDue')}>
              <IsoDate value={p.survivalDue} />
            </Field>
            <Field label={t('pensions.fields.windowEnd')}>
              <IsoDate value={p.survivalWindowEnd} />
            </Field>
            <Field label={t('pensions.fields.graceEnd')}>
              <IsoDate value={p.survivalGraceEnd} />
            </Field>
          </SimpleGrid>
        </Card>
        <Card withBorder>
          <Tabs defaultValue="beneficiaries" keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="beneficiaries">{t('pensions.beneficiaries.title')}</Tabs.Tab>
              <Tabs.Tab value="state">{t('pensions.tabs.state')}</Tabs.Tab>
              <Tabs.Tab value="amounts">{t('pensions.tabs.amounts')}</Tabs.Tab>
              <Tabs.Tab value="checks">{t('pensions.tabs.checks')}</Tabs.Tab>
              <Tabs.Tab value="payments">{t('pensions.tabs.payments')}</Tabs.Tab>
              <Tabs.Tab value="history">{t('ui.history')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="beneficiaries">
              <Beneficiaries p={p} />
            </Tabs.Panel>
            <Tabs.Panel value="state">
              <StatePanel p={p} />
            </Tabs.Panel>
            <Tabs.Panel value="amounts">
              <Amounts p={p} />
            </Tabs.Panel>
            <Tabs.Panel value="checks">
              <Checks id={p.id} />
            </Tabs.Panel>
            <Tabs.Panel value="payments">
              <Payments id={p.id} />
            </Tabs.Panel>
            <Tabs.Panel value="history">
              <RecordHistory
                path="/api/pensions/{id}/history"
                entityId={p.id}
                withTitle={false}
                fieldLabel={(f) => t(`pensions.historyFields.${f}`, f)}
              />
            </Tabs.Panel>
          </Tabs>
        </Card>
      </Stack>
      <CheckModal pension={checkOpen ? p : null} onClose={() => setCheckOpen(false)} />
    </>
  );
}

function Beneficiaries({ p }: { p: PensionDetail }) {
  const { t } = useTranslation();
  if (!p.beneficiaries.length) return <Text size="sm">{t('pensions.beneficiaries.none')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped withTableBorder data-testid="beneficiaries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>CUI</Table.Th>
            <Table.Th>{t('pensions.beneficiaries.fullName')}</Table.Th>
            <Table.Th>{t('pensions.beneficiaries.relationship')}</Table.Th>
            <Table.Th>{t('pensions.beneficiaries.birthDate')}</Table.Th>
            <Table.Th ta="right">{t('pensions.beneficiaries.share')}</Table.Th>
            <Table.Th>{t('pensions.beneficiaries.studyUntil')}</Table.Th>
            <Table.Th>{t('pensions.beneficiaries.endDate')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {p.beneficiaries.map((b) => (
            <Table.Tr key={b.id}>
              <Table.Td>{displayCui(b.cui)}</Table.Td>
              <Table.Td>{b.fullName}</Table.Td>
              <Table.Td>{relationshipLabels[b.relationship]}</Table.Td>
              <Table.Td>
                <IsoDate value={b.birthDate} />
              </Table.Td>
              <Table.Td ta="right">{Number(b.share).toLocaleString('es-GT', { maximumFractionDigits: 4 })} %</Table.Td>
              <Table.Td>
                <IsoDate value={b.studyCertificateUntil} />
              </Table.Td>
              <Table.Td>{b.endDate ? <IsoDate value={b.endDate} /> : t('pensions.beneficiaries.forLife')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function StatePanel({ p }: { p: PensionDetail }) {
  const { t } = useTranslation();
  const transition = useTransitionPension(p.id);
  const history = usePensionTransitions(p.id);
  const take = (x: AvailableTransition, comment: string) => {
    const to = pensionStates.find((s) => s === x.to);
    if (!to) return;
    transition.mutate(
      { to, comment: comment || undefined, expected: p.state },
      { onSuccess: () => notifySuccess(t('pensions.stateChanged')), onError: notifyError },
    );
  };
  return (
    <Stack>
      {p.transitions.length > 0 && (
        <Card withBorder>
          <Text fw={600} mb="xs">
            {t('pensions.stateActions')}
          </Text>
          {p.state === 'SUSPENDIDA' && (
            <Text size="sm" c="dimmed" mb="xs">
              {t('pensions.reactivateHint')}
            </Text>
          )}
          <TransitionActions transitions={p.transitions} pending={transition.isPending} onTake={take} />
        </Card>
      )}
      <div>
        <Title order={3} size="h5" mb="xs">
          {t('pensions.suspensions.title')}
        </Title>
        {p.suspensions.length === 0 ? (
          <Text size="sm">{t('pensions.suspensions.none')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table striped withTableBorder data-testid="suspensions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('pensions.suspensions.reason')}</Table.Th>
                  <Table.Th>{t('pensions.suspensions.from')}</Table.Th>
                  <Table.Th>{t('pensions.suspensions.to')}</Table.Th>
                  <Table.Th>{t('pensions.suspensions.comment')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {p.suspensions.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>{suspensionReasonLabels[s.reason]}</Table.Td>
                    <Table.Td>
                      <IsoDate value={s.fromDate} />
                    </Table.Td>
                    <Table.Td>{s.toDate ? <IsoDate value={s.toDate} /> : t('pensions.suspensions.open')}</Table.Td>
                    <Table.Td>{s.comment ?? '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </div>
      <div>
        <Title order={3} size="h5" mb="xs">
          {t('pensions.owed.title')}
        </Title>
        {p.owedMonths.length === 0 ? (
          <Text size="sm">{t('pensions.owed.none')}</Text>
        ) : (
          <Table striped withTableBorder data-testid="owed-months">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('pensions.owed.period')}</Table.Th>
                <Table.Th ta="right">{t('pensions.owed.amount')}</Table.Th>
                <Table.Th>{t('pensions.owed.paidIn')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {p.owedMonths.map((m) => (
                <Table.Tr key={m.period}>
                  <Table.Td>{formatPeriod(m.period)}</Table.Td>
                  <Table.Td ta="right">
                    <Money value={m.amount} />
                  </Table.Td>
                  <Table.Td>
                    {m.paidInPayrollPeriod ? (
                      formatPeriod(m.paidInPayrollPeriod)
                    ) : (
                      <Badge variant="light">{t('pensions.owed.pending')}</Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </div>
      <div>
        <Title order={3} size="h5" mb="xs">
          {t('pensions.stateHistory')}
        </Title>
        <QueryState query={history}>
          {history.data && (
            <TransitionHistory created={{ at: p.createdAt, by: null, label: t('pensions.created') }} items={history.data.items} />
          )}
        </QueryState>
      </div>
    </Stack>
  );
}

interface AmountValues {
  monthlyAmount: string;
  effectiveFrom: string;
  reason: string;
}

const toAmountChange = (v: AmountValues): AmountChange => ({
  monthlyAmount: v.monthlyAmount,
  effectiveFrom: v.effectiveFrom,
  reason: v.reason,
});

function Amounts({ p }: { p: PensionDetail }) {
  const { t } = useTranslation();
  const can = useCan();
  const [open, setOpen] = useState(false);
  const change = useChangeAmount(p.id);
  const form = useForm<AmountValues>({
    initialValues: { monthlyAmount: '', effectiveFrom: '', reason: '' },
    // The first message of a field: an empty date is "no válida", not "fuera del rango".
    validate: (values) => zod4Resolver(amountChangeInputSchema, { errorPriority: 'first' })(toAmountChange(values)),
  });
  const submit = form.onSubmit((v) =>
    change.mutate(toAmountChange(v), {
      onSuccess: () => {
        notifySuccess(t('pensions.amounts.saved'));
        form.reset();
        setOpen(false);
      },
      onError: (err) => showApiError(err, form, ['monthlyAmount', 'effectiveFrom', 'reason']),
    }),
  );
  return (
    <Stack>
      {can('passive-classes', 'UPDATE') && p.state !== 'FINALIZADA' && (
        <Group justify="flex-end">
          <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setOpen(true)}>
            {t('pensions.amounts.change')}
          </Button>
        </Group>
      )}
      <Table striped withTableBorder data-testid="amounts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('pensions.amounts.from')}</Table.Th>
            <Table.Th ta="right">{t('pensions.fields.monthlyAmount')}</Table.Th>
            <Table.Th>{t('pensions.amounts.reason')}</Table.Th>
            <Table.Th>{t('pensions.amounts.by')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {[...p.amounts]
            .sort((a, b) => b.effectiveFrom.localeCompare(a.effectiveFrom))
            .map((a) => (
              <Table.Tr key={a.id}>
                <Table.Td>
                  <IsoDate value={a.effectiveFrom} />
                </Table.Td>
                <Table.Td ta="right">
                  <Money value={a.monthlyAmount} />
                </Table.Td>
                <Table.Td>{a.reason}</Table.Td>
                <Table.Td>
                  {a.createdBy ?? t('ui.system')} · {formatDateTime(a.createdAt)}
                </Table.Td>
              </Table.Tr>
            ))}
        </Table.Tbody>
      </Table>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('pensions.amounts.change')} centered>
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label={t('pensions.fields.monthlyAmount')}
              required
              inputMode="decimal"
              leftSection="Q"
              {...form.getInputProps('monthlyAmount')}
            />
            <DateField label={t('pensions.amounts.from')} required {...form.getInputProps('effectiveFrom')} />
            <Textarea
              label={t('pensions.amounts.reason')}
              required
              autosize
              minRows={2}
              maxLength={500}
              {...form.getInputProps('reason')}
            />
            <FormActions onCancel={() => setOpen(false)} submitLabel={t('pensions.form.save')} loading={change.isPending} />
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}

function Checks({ id }: { id: number }) {
  const { t } = useTranslation();
  const checks = usePensionChecks(id);
  return (
    <QueryState query={checks}>
      {checks.data?.items.length ? (
        <Table.ScrollContainer minWidth={640}>
          <Table striped withTableBorder data-testid="checks">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('pensions.check.date')}</Table.Th>
                <Table.Th>{t('pensions.check.method')}</Table.Th>
                <Table.Th>{t('pensions.check.covers')}</Table.Th>
                <Table.Th>{t('pensions.check.act')}</Table.Th>
                <Table.Th>{t('pensions.check.notes')}</Table.Th>
                <Table.Th>{t('pensions.check.by')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {checks.data.items.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    <IsoDate value={c.checkDate} />
                    {c.reactivated && (
                      <Badge ms="xs" color="green" variant="light">
                        {t('pensions.check.reactivated')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{survivalMethodLabels[c.method]}</Table.Td>
                  <Table.Td>
                    <IsoDate value={c.coversDue} />
                  </Table.Td>
                  <Table.Td>
                    <ActLink check={c} />
                  </Table.Td>
                  <Table.Td>{c.notes ?? '—'}</Table.Td>
                  <Table.Td>{c.createdBy ?? t('ui.system')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text size="sm">{t('pensions.check.none')}</Text>
      )}
    </QueryState>
  );
}

function Payments({ id }: { id: number }) {
  const { t } = useTranslation();
  const payments = usePensionPayments(id);
  return (
    <QueryState query={payments}>
      {payments.data?.items.length ? (
        <Table.ScrollContainer minWidth={560}>
          <Table striped withTableBorder data-testid="payments">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('pensions.payroll.period')}</Table.Th>
                <Table.Th>{t('pensions.payroll.kind')}</Table.Th>
                <Table.Th>{t('pensions.payroll.forPeriod')}</Table.Th>
                <Table.Th ta="right">{t('pensions.payroll.days')}</Table.Th>
                <Table.Th ta="right">{t('pensions.payroll.amount')}</Table.Th>
                <Table.Th>{t('pensions.payroll.state')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {payments.data.items.map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/contributors/passive-classes/planilla?period=${l.payrollPeriod}`}>
                      {formatPeriod(l.payrollPeriod)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{payrollLineKindLabels[l.kind]}</Table.Td>
                  <Table.Td>{formatPeriod(l.forPeriod)}</Table.Td>
                  <Table.Td ta="right">{l.days}</Table.Td>
                  <Table.Td ta="right">
                    <Money value={l.amount} />
                  </Table.Td>
                  <Table.Td>{payrollStateLabels[l.payrollState]}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text size="sm">{t('pensions.payments.none')}</Text>
      )}
    </QueryState>
  );
}
