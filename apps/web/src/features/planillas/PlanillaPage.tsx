import 'mantine-datatable/styles.layer.css';
import {
  type AvailableTransition,
  formatPaymentReference,
  formatPeriod,
  formatRate,
  movements,
  planillaLineInputSchema,
} from '@aporta/domain';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Grid,
  Group,
  List,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconEdit, IconMessageCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { DataTable } from 'mantine-datatable';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { JobProgress } from '../../components/JobProgress.tsx';
import { Money } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { TransitionActions } from '../../components/TransitionActions.tsx';
import { TransitionHistory } from '../../components/TransitionHistory.tsx';
import { ErrorDetails } from '../../components/UploadPageFrame.tsx';
import { ApiError, fillPath } from '../../lib/api.ts';
import { openConfirm } from '../../lib/confirm.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { displayCui, formatDate, formatDateTime } from '../../lib/format.ts';
import { apiErrorText, notifyError, notifySuccess, notifyWarning } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  fetchPlanillaComparison,
  invalidate,
  type Planilla,
  type PlanillaLine,
  type PlanillaLineBody,
  usePlanilla,
  usePlanillaComments,
  usePlanillaComparison,
  usePlanillaHistory,
  usePlanillaLines,
  useRemoveLine,
  useSaveLine,
  useTransitionPlanilla,
} from './api.ts';
import { LineIssues, LineObservations, PlanillaStateBadge } from './components.tsx';
import { confirmApprove, confirmSubmit } from './confirmations.tsx';

/** Employees missing since last period listed in the review; the count says how many more. */
const MISSING_SHOWN = 10;

const LINE_FIELDS = ['cui', 'fullName', 'budgetLine', 'salary', 'days', 'movement', 'movementDate'] as const;
type LineValues = Record<(typeof LINE_FIELDS)[number], string>;

/** The line as the API takes it: an empty optional field is null. */
const toLineBody = (v: LineValues): PlanillaLineBody => ({
  cui: v.cui,
  fullName: v.fullName,
  budgetLine: v.budgetLine,
  salary: v.salary,
  days: v.days || null,
  movement: v.movement || null,
  movementDate: v.movementDate || null,
});

/** Add or correct one line; the server refuses a bad line naming each field, shown on the field. */
function LineForm({ planillaId, line, onClose }: { planillaId: number; line: PlanillaLine | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveLine(planillaId);
  const form = useForm<LineValues>({
    initialValues: {
      cui: line?.cui ?? '',
      fullName: line?.fullName ?? '',
      budgetLine: line?.budgetLineCode ?? '',
      salary: line?.salary ?? line?.salaryText ?? '',
      days: line?.daysWorked == null ? '' : String(line.daysWorked),
      movement: line?.movement ?? '',
      movementDate: line?.movementDate ?? '',
    },
    validate: (values) => zod4Resolver(planillaLineInputSchema)(toLineBody(values)),
  });
  const submit = form.onSubmit((v) => {
    save.mutate(
      { lineId: line?.id ?? null, body: toLineBody(v) },
      {
        onSuccess: () => {
          notifySuccess(line ? t('planillas.lines.saved') : t('planillas.lines.added'));
          onClose();
        },
        onError: (err) => showApiError(err, form, LINE_FIELDS),
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {line && (line.errors.length > 0 || line.warnings.length > 0) && (
          <LineIssues errors={line.errors} warnings={line.warnings} />
        )}
        <TextInput label="CUI" required {...form.getInputProps('cui')} data-autofocus />
        <TextInput label={t('planillas.fields.fullName')} required {...form.getInputProps('fullName')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('planillas.fields.budgetLine')} required placeholder="011" {...form.getInputProps('budgetLine')} />
          <TextInput label={t('planillas.fields.salary')} required placeholder="3,500.00" {...form.getInputProps('salary')} />
          <TextInput label={t('planillas.fields.days')} {...form.getInputProps('days')} />
          <Select
            label={t('planillas.fields.movement')}
            clearable
            data={movements.map((m) => ({ value: m, label: t(`planillas.movements.${m}`) }))}
            {...form.getInputProps('movement')}
          />
        </SimpleGrid>
        <DateField
          label={t('planillas.fields.movementDate')}
          {...form.getInputProps('movementDate')}
          onChange={(d) => form.setFieldValue('movementDate', d ?? '')}
        />
        <FormActions onCancel={onClose} submitLabel={t('planillas.lines.save')} loading={save.isPending} />
      </Stack>
    </form>
  );
}

type LineNote = { lineId: number; rowNumber: number; comment: string };

function Lines({
  planilla,
  reviewing,
  notes,
  onNote,
}: {
  planilla: Planilla;
  reviewing: boolean;
  notes: LineNote[];
  onNote: (line: PlanillaLine) => void;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 300);
  // Observed and back with the operator: the lines the reviewer observed come first (issue 28).
  const [issues, setIssues] = useState<'all' | 'errors' | 'warnings' | 'observations'>(
    planilla.errorCount ? 'errors' : planilla.state === 'OBSERVADA' && planilla.observedLineCount ? 'observations' : 'all',
  );
  // The last error fixed: the table leaves the (now empty) "with errors" filter and shows every line.
  useEffect(() => {
    if (issues === 'errors' && planilla.errorCount === 0) {
      setIssues('all');
      setPage(1);
    }
  }, [issues, planilla.errorCount]);
  const query = { page, pageSize: 25, q: debounced || undefined, issues: issues === 'all' ? undefined : issues };
  const lines = usePlanillaLines(planilla.id, query);
  const remove = useRemoveLine(planilla.id);
  const [editing, setEditing] = useState<PlanillaLine | 'new' | null>(null);
  const confirmRemove = (l: PlanillaLine) =>
    openConfirm({
      title: t('planillas.lines.removeTitle'),
      children: <Text size="sm">{t('planillas.lines.removeText', { row: l.rowNumber, name: l.fullName })}</Text>,
      labels: { confirm: t('planillas.lines.remove'), cancel: t('common.cancel') },
      confirmProps: { color: 'red.9' },
      onConfirm: () =>
        remove.mutate(l.id, { onSuccess: () => notifySuccess(t('planillas.lines.removed')), onError: notifyError }),
    });
  return (
    <Card withBorder data-testid="planilla-lines-card">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4">
          {t('planillas.lines.title', { count: planilla.lineCount })}
        </Title>
        <Group wrap="wrap">
          <TextInput
            aria-label={t('planillas.lines.search')}
            placeholder={t('planillas.lines.search')}
            value={q}
            onChange={(e) => {
              setQ(e.currentTarget.value);
              setPage(1);
            }}
            w={260}
          />
          <SegmentedControl
            value={issues}
            onChange={(v) => {
              setIssues(v as typeof issues);
              setPage(1);
            }}
            data={[
              { value: 'all', label: t('planillas.lines.all') },
              { value: 'errors', label: t('planillas.lines.withErrors', { count: planilla.errorCount }) },
              { value: 'warnings', label: t('planillas.lines.withWarnings', { count: planilla.warningCount }) },
              {
                value: 'observations',
                label: t('planillas.lines.withObservations', { count: planilla.observedLineCount }),
              },
            ]}
          />
          {planilla.canEdit && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              {t('planillas.lines.add')}
            </Button>
          )}
        </Group>
      </Group>
      <QueryState query={lines} list>
        <DataTable<PlanillaLine>
          withTableBorder
          minHeight={160}
          fetching={lines.isFetching}
          records={lines.data?.items ?? []}
          totalRecords={lines.data?.total ?? 0}
          recordsPerPage={25}
          page={page}
          onPageChange={setPage}
          noRecordsText={t('planillas.lines.empty')}
          rowStyle={(l) => (l.errors.length ? { background: 'var(--mantine-color-red-light)' } : undefined)}
          columns={[
            { accessor: 'rowNumber', title: '#', width: 56 },
            { accessor: 'cui', title: 'CUI', render: (l) => <span dir="ltr">{displayCui(l.cui) || '—'}</span> },
            { accessor: 'fullName', title: t('planillas.fields.fullName') },
            { accessor: 'budgetLineCode', title: t('planillas.fields.budgetLineShort') },
            {
              accessor: 'salary',
              title: t('planillas.fields.salary'),
              textAlign: 'right',
              render: (l) => (l.salary ? <Money value={l.salary} /> : (l.salaryText ?? '—')),
            },
            {
              accessor: 'employeeAmount',
              title: t('planillas.fields.employee'),
              textAlign: 'right',
              render: (l) => <Money value={l.employeeAmount} />,
            },
            {
              accessor: 'employerAmount',
              title: t('planillas.fields.employer'),
              textAlign: 'right',
              render: (l) => <Money value={l.employerAmount} />,
            },
            {
              accessor: 'issues',
              title: t('planillas.fields.issues'),
              render: (l) => (
                <Stack gap={2}>
                  <LineIssues errors={l.errors} warnings={l.warnings} />
                  <LineObservations observations={l.observations} />
                  {notes
                    .filter((n) => n.lineId === l.id)
                    .map((n) => (
                      <Text key={n.comment} size="xs" fs="italic">
                        {t('planillas.review.noteOnLine', { comment: n.comment })}
                      </Text>
                    ))}
                </Stack>
              ),
            },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('planillas.lines.actions')}</span>,
              textAlign: 'right',
              render: (l) => (
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  {planilla.canEdit && (
                    <>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('planillas.lines.editRow', { row: l.rowNumber })}
                        onClick={() => setEditing(l)}
                      >
                        <IconEdit size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red.9"
                        aria-label={t('planillas.lines.removeRow', { row: l.rowNumber })}
                        onClick={() => confirmRemove(l)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </>
                  )}
                  {reviewing && (
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('planillas.review.observeRow', { row: l.rowNumber })}
                      onClick={() => onNote(l)}
                    >
                      <IconMessageCircle size={16} />
                    </ActionIcon>
                  )}
                </Group>
              ),
            },
          ]}
        />
      </QueryState>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('planillas.lines.add') : t('planillas.lines.editTitle', { row: editing?.rowNumber ?? '' })}
        closeButtonProps={{ 'aria-label': t('common.close') }}
        size="lg"
      >
        {editing !== null && (
          <LineForm planillaId={planilla.id} line={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
        )}
      </Modal>
    </Card>
  );
}

/** What the approval created: the payment orders of the planilla, each a link to its page. */
function IssuedOrders({ planilla }: { planilla: Planilla }) {
  const { t } = useTranslation();
  const can = useCan();
  const linked = can('payment-orders', 'READ');
  return (
    <Card withBorder data-testid="planilla-orders">
      <Title order={2} size="h4" mb="xs">
        {t('planillas.orders.title', { count: planilla.orders.length })}
      </Title>
      <Table.ScrollContainer minWidth={560}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('planillas.orders.reference')}</Table.Th>
              <Table.Th>{t('planillas.orders.kind')}</Table.Th>
              <Table.Th ta="end">{t('planillas.orders.amount')}</Table.Th>
              <Table.Th>{t('planillas.orders.dueDate')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {planilla.orders.map((o) => {
              const reference = <span dir="ltr">{formatPaymentReference(o.reference)}</span>;
              return (
                <Table.Tr key={o.id}>
                  <Table.Td>
                    {linked ? (
                      <Anchor component={Link} to={`/ordenes-pago/${o.id}`} data-testid="planilla-order-link">
                        {reference}
                      </Anchor>
                    ) : (
                      reference
                    )}
                  </Table.Td>
                  <Table.Td>{t(`planillas.orders.kinds.${o.kind}`)}</Table.Td>
                  <Table.Td ta="end">
                    <Money value={o.principal} />
                  </Table.Td>
                  <Table.Td>{formatDate(o.dueDate)}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/** The review's comparison with the previous period (new, missing, salary changes, RENAP). */
function Comparison({ planilla }: { planilla: Planilla }) {
  const { t } = useTranslation();
  const cmp = usePlanillaComparison(planilla.id);
  return (
    <Card withBorder data-testid="comparison">
      <Title order={2} size="h4" mb="sm">
        {t('planillas.review.comparison')}
      </Title>
      <QueryState query={cmp}>
        {() => {
          const c = cmp.data!;
          return (
            <Stack gap="sm">
              {c.previous ? (
                <Text size="sm">
                  {t('planillas.review.previous', { period: formatPeriod(c.previous.period), count: c.previous.lineCount })}{' '}
                  <Anchor component={Link} to={`/planilla/vista/${c.previous.id}`}>
                    {t('planillas.review.open')}
                  </Anchor>
                </Text>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('planillas.review.noPrevious')}
                </Text>
              )}
              <SimpleGrid cols={{ base: 2, sm: 4 }}>
                <Stat label={t('planillas.review.new')} value={c.newCount} />
                <Stat label={t('planillas.review.missing')} value={c.missingCount} />
                <Stat label={t('planillas.review.salaryChanges')} value={c.salaryChangeCount} />
                <Stat label={t('planillas.review.renap')} value={c.renapCount} />
              </SimpleGrid>
              {c.previous && (
                <Text size="sm">
                  {t('planillas.review.totalsAgainst')} <Money value={c.previous.totalEmployee} /> →{' '}
                  <Money value={planilla.totalEmployee} />
                </Text>
              )}
              {c.missing.length > 0 && (
                <div>
                  <Text size="sm" fw={600}>
                    {t('planillas.review.missingList')}
                  </Text>
                  <List size="sm">
                    {c.missing.slice(0, MISSING_SHOWN).map((m) => (
                      <List.Item key={m.cui}>
                        <span dir="ltr">{displayCui(m.cui)}</span> · {m.fullName} · <Money value={m.salary} />
                      </List.Item>
                    ))}
                  </List>
                  {c.missingCount > MISSING_SHOWN && (
                    <Text size="sm" c="dimmed">
                      {t('planillas.review.missingMore', { count: c.missingCount - MISSING_SHOWN })}
                    </Text>
                  )}
                </div>
              )}
            </Stack>
          );
        }}
      </QueryState>
    </Card>
  );
}

const Stat = ({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) => (
  <div>
    <Text size="xs" c="dimmed">
      {label}
    </Text>
    <Text fw={700} fz="lg" data-testid={testId}>
      {value}
    </Text>
  </div>
);

function Comments({ planillaId }: { planillaId: number }) {
  const { t } = useTranslation();
  const comments = usePlanillaComments(planillaId);
  return (
    <QueryState query={comments}>
      {() =>
        comments.data!.items.length ? (
          <Stack gap="xs" data-testid="planilla-comments">
            {comments.data!.items.map((c) => (
              <div key={c.id}>
                <Text size="xs" c="dimmed">
                  {formatDateTime(c.createdAt)} · {c.authorEmail}
                  {c.lineRow != null && ` · ${t('planillas.comments.line', { row: c.lineRow })}`}
                </Text>
                <Text size="sm">{c.body}</Text>
              </div>
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('planillas.comments.empty')}
          </Text>
        )
      }
    </QueryState>
  );
}

/** The transitions whose toast says what happened in their own words (the rest name the state reached). */
const DONE_KEYS = [
  'PLANILLA_SUBMIT',
  'PLANILLA_TAKE',
  'PLANILLA_APPROVE',
  'PLANILLA_OBSERVE',
  'PLANILLA_REJECT',
  'PLANILLA_DISCARD',
  'PLANILLA_VOID',
] as const;

/** What a transition's toast says: "Planilla enviada a revisión.", "Planilla aprobada: 2 órdenes de pago emitidas." */
function doneText(t: TFunction, x: AvailableTransition, r: Planilla): string {
  const key = DONE_KEYS.find((k) => k === x.key);
  if (key) return t(`planillas.actions.done.${key}`, { count: r.orders.length });
  return t('planillas.actions.done.other', { state: t(`planillas.states.${r.state}`) });
}

/**
 * While the planilla on screen is being sent (ENVIANDO) the page polls it; when its submit job ends it
 * under the user's eyes, everything shown is fetched again (lines recalculated, timeline) and the outcome
 * is told: sent, or back where it was (the reason stays on the page).
 */
function useFollowSubmit(p: Planilla | undefined) {
  const { t } = useTranslation();
  const before = useRef<Planilla['state'] | null>(null);
  useEffect(() => {
    const was = before.current;
    before.current = p?.state ?? null;
    if (!p || was !== 'ENVIANDO' || p.state === 'ENVIANDO') return;
    invalidate();
    if (p.state === 'ENVIADA') notifySuccess(t('planillas.submit.sent'));
    else notifyWarning(t('planillas.submit.back', { state: t(`planillas.states.${p.state}`) }));
  });
}

export function PlanillaPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const planilla = usePlanilla(id);
  const history = usePlanillaHistory(id);
  const transition = useTransitionPlanilla(id);
  const can = useCan();
  const [notes, setNotes] = useState<LineNote[]>([]);
  const [noting, setNoting] = useState<PlanillaLine | null>(null);
  const [noteText, setNoteText] = useState('');
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  useFollowSubmit(planilla.data);

  const run = (p: Planilla, x: AvailableTransition, comment: string) => {
    setRefusal(null);
    transition.mutate(
      {
        to: x.to as Planilla['state'],
        comment,
        expected: p.state,
        lineComments:
          x.to === 'OBSERVADA' && notes.length ? notes.map((n) => ({ lineId: n.lineId, comment: n.comment })) : undefined,
      },
      {
        onSuccess: (r) => {
          setNotes([]);
          notifySuccess(doneText(t, x, r));
        },
        onError: (err) => {
          if (err instanceof ApiError && err.details.length) setRefusal(err);
          else notifyError(err);
        },
      },
    );
  };

  // Sending and approving move money (the contributions declared; the payment orders issued): each asks
  // first, saying what, how much, to whom and what it creates.
  const take = (p: Planilla, x: AvailableTransition, comment: string) => {
    if (x.to === 'ENVIANDO') confirmSubmit(t, p, () => run(p, x, comment));
    else if (x.to === 'APROBADA') {
      setRefusal(null);
      fetchPlanillaComparison(p.id)
        .catch(() => null)
        .then((c) => confirmApprove(t, p, c, () => run(p, x, comment)));
    } else run(p, x, comment);
  };

  return (
    <QueryState query={planilla} notFound={<Alert color="red">{t('planillas.notFound')}</Alert>}>
      {() => {
        const p = planilla.data!;
        const reviewing = p.state === 'EN_REVISION' && p.transitions.some((x) => x.to === 'APROBADA');
        const settings = p.settings?.values;
        const subjectLines = settings?.['contributions.subjectBudgetLines']?.value;
        return (
          <Stack>
            <PageHeader
              title={t('planillas.page.title', { entity: p.entityName, period: formatPeriod(p.period) })}
              description={`${t(`planillas.types.${p.type}`)} · ${p.entityCode}`}
            >
              <PlanillaStateBadge state={p.state} />
              {can('planillas', 'EXPORT') && (
                <ExportButtons
                  path={fillPath('/api/planillas/{id}/export', { id: p.id })}
                  query={{}}
                  formats={['xlsx', 'csv', 'pdf']}
                />
              )}
            </PageHeader>
            <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
              <Card withBorder>
                <Stat label={t('planillas.fields.employees')} value={p.lineCount} testId="planilla-lines" />
              </Card>
              <Card withBorder>
                <Stat
                  label={t('planillas.fields.errors')}
                  value={
                    <Text span c={p.errorCount ? 'red.9' : undefined} fw={700} fz="lg">
                      {p.errorCount}
                    </Text>
                  }
                  testId="planilla-errors"
                />
              </Card>
              <Card withBorder>
                <Stat label={t('planillas.fields.warnings')} value={p.warningCount} />
              </Card>
              <Card withBorder>
                <Stat label={t('planillas.fields.totalSalary')} value={<Money value={p.totalSalary} />} />
              </Card>
              <Card withBorder>
                <Stat
                  label={t('planillas.fields.employee')}
                  value={<Money value={p.totalEmployee} />}
                  testId="planilla-employee"
                />
              </Card>
              <Card withBorder>
                <Stat label={t('planillas.fields.employer')} value={<Money value={p.totalEmployer} />} />
              </Card>
            </SimpleGrid>
            {settings && (
              <Text size="xs" c="dimmed">
                {t('planillas.page.rates', {
                  employee: formatRate(String(settings['contributions.employeeRate']?.value ?? '0')),
                  employer: formatRate(String(settings['contributions.employerRate']?.value ?? '0')),
                  lines: Array.isArray(subjectLines) ? subjectLines.join(', ') : '',
                })}
              </Text>
            )}
            {p.state === 'ENVIANDO' && p.submitJobId != null && (
              <Stack gap={0} data-testid="planilla-sending">
                <Text size="sm" c="dimmed" mb="xs">
                  {t('planillas.submit.sending')}
                </Text>
                <JobProgress jobId={p.submitJobId} />
              </Stack>
            )}
            {p.submitMessage && (p.state === 'BORRADOR' || p.state === 'OBSERVADA') && (
              <Alert color="red" title={t('planillas.submit.notSent')} data-testid="submit-message">
                {p.submitMessage}
              </Alert>
            )}
            {p.transitions.length > 0 && (
              <Card withBorder>
                <Title order={2} size="h4" mb="xs">
                  {t('planillas.actions.title')}
                </Title>
                {reviewing && (
                  <Text size="sm" c="dimmed" mb="xs">
                    {notes.length ? t('planillas.review.notes', { count: notes.length }) : t('planillas.review.notesHint')}
                  </Text>
                )}
                {p.errorCount > 0 && p.transitions.some((x) => x.to === 'ENVIANDO') && (
                  <Alert color="orange" mb="sm">
                    {t('planillas.actions.errorsBlock', { count: p.errorCount })}
                  </Alert>
                )}
                <TransitionActions transitions={p.transitions} pending={transition.isPending} onTake={(x, c) => take(p, x, c)} />
                {refusal && (
                  <Alert color="red" mt="sm" title={apiErrorText(refusal)} data-testid="transition-refused">
                    <ErrorDetails error={refusal} max={20} />
                  </Alert>
                )}
              </Card>
            )}
            {p.orders.length > 0 && <IssuedOrders planilla={p} />}
            {(reviewing || p.state === 'ENVIADA' || can('delegate-review', 'READ')) && <Comparison planilla={p} />}
            <Lines
              planilla={p}
              reviewing={reviewing}
              notes={notes}
              onNote={(l) => {
                setNoting(l);
                setNoteText('');
              }}
            />
            <Grid>
              <Grid.Col span={{ base: 12, md: 6 }}>
                <Card withBorder>
                  <Title order={2} size="h4" mb="sm">
                    {t('planillas.page.timeline')}
                  </Title>
                  <QueryState query={history}>
                    {() => (
                      <TransitionHistory
                        created={{ at: p.createdAt, by: p.createdByEmail, label: t('planillas.page.created') }}
                        items={history.data!.items}
                      />
                    )}
                  </QueryState>
                </Card>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 6 }}>
                <Card withBorder>
                  <Title order={2} size="h4" mb="sm">
                    {t('planillas.comments.title')}
                  </Title>
                  <Comments planillaId={p.id} />
                </Card>
              </Grid.Col>
            </Grid>
            <Modal
              opened={!!noting}
              onClose={() => setNoting(null)}
              title={t('planillas.review.observeRow', { row: noting?.rowNumber ?? '' })}
              closeButtonProps={{ 'aria-label': t('common.close') }}
            >
              <Stack>
                <Textarea
                  label={t('planillas.review.noteLabel')}
                  value={noteText}
                  maxLength={500}
                  autosize
                  minRows={2}
                  onChange={(e) => setNoteText(e.currentTarget.value)}
                  data-autofocus
                />
                <Group justify="flex-end">
                  <Button
                    disabled={!noteText.trim()}
                    onClick={() => {
                      if (noting)
                        setNotes((ns) => [
                          ...ns.filter((n) => n.lineId !== noting.id),
                          { lineId: noting.id, rowNumber: noting.rowNumber, comment: noteText.trim() },
                        ]);
                      setNoting(null);
                    }}
                  >
                    {t('planillas.review.addNote')}
                  </Button>
                </Group>
              </Stack>
            </Modal>
          </Stack>
        );
      }}
    </QueryState>
  );
}
