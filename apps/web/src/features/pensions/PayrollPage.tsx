import {
  formatPeriod,
  payrollExceptionKinds,
  payrollLineKindLabels,
  payrollLineKinds,
  payrollStateLabels,
  pensionTypeLabels,
  periodSchema,
} from '@aporta/domain';
import { Alert, Anchor, Badge, Button, Card, Group, Pagination, SegmentedControl, SimpleGrid, Table, Text } from '@mantine/core';
import { IconDownload, IconFileTypePdf, IconLock, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { type ListColumn, ListPage, type ListQueryResult } from '../../components/ListPage.tsx';
import { Money } from '../../components/Money.tsx';
import { PeriodField } from '../../components/PeriodField.tsx';
import { NotAuthorizedPage } from '../../components/RequirePermission.tsx';
import { SpanishDocumentHint } from '../../components/SpanishDocumentHint.tsx';
import { ApiError } from '../../lib/api.ts';
import { openConfirm } from '../../lib/confirm.ts';
import { displayCui, formatDate, formatDateTime } from '../../lib/format.ts';
import { errorText, notifyError, notifySuccess } from '../../lib/notify.ts';
import { messageText } from '../../lib/server-messages.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  downloadPayrollBankFile,
  downloadPayrollSummary,
  type PayrollExceptionRow,
  type PayrollLineRow,
  payrollLinesHook,
  useClosePayroll,
  useGeneratePayroll,
  usePayroll,
  usePayrollExceptions,
  usePayrolls,
} from './api.ts';

const thisMonth = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
};

const Stat = ({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) => (
  <div data-testid={testId}>
    <Text size="xs" c="dimmed">
      {label}
    </Text>
    <Text fw={600}>{children}</Text>
  </div>
);

const EXCEPTIONS_PAGE = 20;
type ExceptionKind = (typeof payrollExceptionKinds)[number];

/**
 * The day an exception speaks of: the suspension's start for an excluded pension (dd/mm/aaaa), the
 * planilla's month that names a flagged pensioner as an employee (mm/aaaa).
 */
const exceptionDate = (e: PayrollExceptionRow): string => {
  const date = e.params?.date;
  if (typeof date === 'string' && date) return formatDate(date);
  const period = e.params?.period;
  return typeof period === 'string' && period ? formatPeriod(period) : '';
};

/**
 * What the month's payroll left out (suspended: a RENAP death, an overdue survival check, a manual
 * suspension) or paid and pointed out (a pensioner on a recent planilla as an employee), with why.
 */
function PayrollExceptions({ period }: { period: string }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<ExceptionKind | 'ALL'>('ALL');
  const [page, setPage] = useState(1);
  const rows = usePayrollExceptions(period, {
    page,
    pageSize: EXCEPTIONS_PAGE,
    kind: kind === 'ALL' ? undefined : kind,
  });
  const items = rows.data?.items ?? [];
  const total = rows.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / EXCEPTIONS_PAGE));
  return (
    <Card withBorder data-testid="payroll-exceptions">
      <Group justify="space-between" mb="xs" wrap="wrap">
        <div>
          <Text fw={600}>{t('pensions.payroll.exceptions.title')}</Text>
          <Text size="sm" c="dimmed">
            {t('pensions.payroll.exceptions.hint')}
          </Text>
        </div>
        <SegmentedControl
          size="xs"
          value={kind}
          onChange={(v) => {
            setKind(v as ExceptionKind | 'ALL');
            setPage(1);
          }}
          data={[
            { value: 'ALL', label: t('pensions.payroll.exceptions.all') },
            ...payrollExceptionKinds.map((k) => ({ value: k, label: t(`pensions.payroll.exceptions.kinds.${k}`) })),
          ]}
          aria-label={t('pensions.payroll.exceptions.kind')}
        />
      </Group>
      {rows.isError && <Alert color="red">{errorText(rows.error)}</Alert>}
      {!rows.isError && !rows.isPending && items.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="payroll-exceptions-empty">
          {kind === 'ALL' ? t('pensions.payroll.exceptions.none') : t('pensions.payroll.exceptions.noneOfKind')}
        </Text>
      )}
      {items.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('pensions.fields.pensioner')}</Table.Th>
                <Table.Th>CUI</Table.Th>
                <Table.Th>{t('pensions.payroll.exceptions.kind')}</Table.Th>
                <Table.Th>{t('pensions.payroll.exceptions.reason')}</Table.Th>
                <Table.Th>{t('pensions.payroll.exceptions.date')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((e) => (
                <Table.Tr key={e.id} data-testid="payroll-exception">
                  <Table.Td>
                    <Link to={`/contributors/passive-classes/${e.pensionId}`}>{e.fullName}</Link>
                    <Text size="xs" c="dimmed">
                      {pensionTypeLabels[e.type]}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <span dir="ltr">{displayCui(e.cui)}</span>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={e.kind === 'EXCLUIDA' ? 'red' : 'orange'} variant="light" c="var(--mantine-color-text)">
                      {t(`pensions.payroll.exceptions.kinds.${e.kind}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{messageText(e)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {exceptionDate(e)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && (
        <Group justify="flex-end" mt="xs">
          <Pagination size="sm" total={pages} value={page} onChange={setPage} />
        </Group>
      )}
    </Card>
  );
}

/**
 * `/contributors/passive-classes/planilla`: the monthly pension payroll — generate (or regenerate the
 * draft), its lines with totals, close it (immutable from then on), the bank file and the PDF summary.
 */
export function PayrollPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [search, setSearch] = useSearchParams();
  const period = search.get('period') ?? thisMonth();
  const valid = periodSchema.safeParse(period).success;
  const payroll = usePayroll(valid ? period : null);
  const recent = usePayrolls({ page: 1, pageSize: 6 });
  const generate = useGeneratePayroll();
  const close = useClosePayroll();
  if (!can('passive-classes', 'READ')) return <NotAuthorizedPage />;
  const p = payroll.data;
  const missing = payroll.error instanceof ApiError && payroll.error.status === 404;
  const setPeriod = (v: string) => setSearch(v ? { period: v } : {}, { replace: true });

  const run = () =>
    generate.mutate(period, {
      onSuccess: () => notifySuccess(t('pensions.payroll.generated', { period: formatPeriod(period) })),
      onError: notifyError,
    });
  const confirmClose = () =>
    openConfirm({
      title: t('pensions.payroll.close'),
      children: (
        <Text size="sm">{t('pensions.payroll.closeConfirm', { period: formatPeriod(period), total: p?.total ?? '' })}</Text>
      ),
      labels: { confirm: t('pensions.payroll.close'), cancel: t('common.cancel') },
      confirmProps: { color: 'red.9' },
      onConfirm: () =>
        close.mutate(period, {
          onSuccess: () => notifySuccess(t('pensions.payroll.closed', { period: formatPeriod(period) })),
          onError: notifyError,
        }),
    });

  const columns: ListColumn<PayrollLineRow>[] = [
    { accessor: 'cui', title: 'CUI', kind: 'cui' },
    {
      accessor: 'fullName',
      title: t('pensions.fields.pensioner'),
      render: (l) => <Link to={`/contributors/passive-classes/${l.pensionId}`}>{l.fullName}</Link>,
    },
    { accessor: 'type', title: t('pensions.fields.type'), render: (l) => pensionTypeLabels[l.type] },
    {
      accessor: 'kind',
      title: t('pensions.payroll.kind'),
      render: (l) =>
        l.kind === 'ATRASO' ? (
          <Badge color="orange" variant="light" c="var(--mantine-color-text)">
            {payrollLineKindLabels[l.kind]}
          </Badge>
        ) : (
          payrollLineKindLabels[l.kind]
        ),
    },
    { accessor: 'forPeriod', title: t('pensions.payroll.forPeriod'), render: (l) => formatPeriod(l.forPeriod) },
    { accessor: 'days', title: t('pensions.payroll.days'), textAlign: 'right' },
    { accessor: 'amount', title: t('pensions.payroll.amount'), textAlign: 'right', render: (l) => <Money value={l.amount} /> },
    { accessor: 'bankAccount', title: t('pensions.fields.bankAccount') },
  ];

  const notice = (
    <>
      <Group align="flex-end" wrap="wrap" justify="space-between">
        <Group align="flex-end" wrap="wrap">
          <PeriodField
            label={t('pensions.payroll.period')}
            description={t('pensions.payroll.periodHint')}
            value={period}
            // Text that is not yet a month keeps the payroll shown (the field says what is wrong).
            onChange={(v) => v && setPeriod(v)}
            required
            error={!valid ? t('pensions.payroll.periodInvalid') : undefined}
            w={{ base: '100%', sm: 180 }}
            data-testid="payroll-period"
          />
          {(recent.data?.items ?? []).map((r) => (
            <Anchor key={r.period} component="button" type="button" size="sm" onClick={() => setPeriod(r.period)} mb={6}>
              {formatPeriod(r.period)} ({payrollStateLabels[r.state]})
            </Anchor>
          ))}
        </Group>
        <Group gap="xs">
          {valid && can('passive-classes', 'CREATE') && (!p || p.state === 'BORRADOR') && (
            <Button leftSection={<IconRefresh size={16} />} loading={generate.isPending} onClick={run}>
              {p ? t('pensions.payroll.regenerate') : t('pensions.payroll.generate')}
            </Button>
          )}
          {p && can('passive-classes', 'EXPORT') && (
            <>
              <Button
                variant="light"
                leftSection={<IconDownload size={16} />}
                onClick={() => downloadPayrollBankFile(period).catch(notifyError)}
              >
                {t('pensions.payroll.bankFile')}
              </Button>
              <Button
                variant="light"
                leftSection={<IconFileTypePdf size={16} />}
                onClick={() => downloadPayrollSummary(period).catch(notifyError)}
              >
                {t('pensions.payroll.summary')}
              </Button>
              <SpanishDocumentHint />
            </>
          )}
          {p?.state === 'BORRADOR' && can('passive-classes', 'APPROVE') && (
            <Button
              color="red.9"
              variant="outline"
              leftSection={<IconLock size={16} />}
              loading={close.isPending}
              onClick={confirmClose}
            >
              {t('pensions.payroll.close')}
            </Button>
          )}
        </Group>
      </Group>
      {missing && valid && <Alert color="gray">{t('pensions.payroll.none', { period: formatPeriod(period) })}</Alert>}
      {payroll.isError && !missing && <Alert color="red">{errorText(payroll.error)}</Alert>}
      {p && (
        <Card withBorder data-testid="payroll-summary">
          <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }}>
            <Stat label={t('pensions.payroll.state')}>
              <Badge color={p.state === 'CERRADA' ? 'gray' : 'blue'} variant="light" c="var(--mantine-color-text)">
                {payrollStateLabels[p.state]}
              </Badge>
            </Stat>
            <Stat label={t('pensions.payroll.pensions')}>{p.pensions}</Stat>
            <Stat label={t('pensions.payroll.lines')}>{p.lines}</Stat>
            <Stat label={t('pensions.payroll.total')} testId="payroll-total">
              <Money value={p.total} />
            </Stat>
            <Stat label={t('pensions.payroll.owedTotal')} testId="payroll-owed">
              <Money value={p.owedTotal} />
            </Stat>
            <Stat label={t('pensions.payroll.excluded')}>{p.excludedSuspended}</Stat>
            <Stat label={p.closedAt ? t('pensions.payroll.closedAt') : t('pensions.payroll.generatedAt')}>
              <Text size="sm">{formatDateTime(p.closedAt ?? p.generatedAt)}</Text>
            </Stat>
          </SimpleGrid>
          {p.state === 'CERRADA' && (
            <Text size="sm" c="dimmed" mt="xs">
              {t('pensions.payroll.closedHint')}
            </Text>
          )}
        </Card>
      )}
      {p && <PayrollExceptions key={`${period}-${p.generatedAt}`} period={period} />}
    </>
  );

  return (
    <ListPage<PayrollLineRow>
      key={p ? `${period}-${p.generatedAt}` : 'none'}
      title={t('pensions.payroll.title')}
      description={t('pensions.payroll.description')}
      defaultSort="id"
      searchLabel={t('pensions.list.search')}
      searchPlaceholder={t('pensions.list.searchByPerson')}
      filters={[
        {
          name: 'kind',
          label: t('pensions.payroll.kind'),
          kind: 'enum',
          options: payrollLineKinds.map((k) => ({ value: k, label: payrollLineKindLabels[k] })),
        },
      ]}
      columns={columns}
      useRows={p ? payrollLinesHook(period) : emptyRows}
      notice={notice}
      emptyText={p ? t('pensions.payroll.noLines') : t('pensions.payroll.generateFirst')}
    />
  );
}

/** No payroll yet for the month: no lines to ask for. */
const emptyRows = (): ListQueryResult<PayrollLineRow> => ({
  data: { items: [], total: 0 },
  isPending: false,
  isError: false,
  error: null,
  isFetching: false,
  refetch: () => undefined,
});
