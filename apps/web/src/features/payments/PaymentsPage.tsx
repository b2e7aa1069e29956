import { bankRowPendingStates, bankRowStates, formatDay } from '@aporta/domain';
import {
  Alert,
  Button,
  Card,
  FileInput,
  Group,
  Loader,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListColumn, ListPage } from '../../components/ListPage.tsx';
import { Money } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ReasonModal } from '../../components/ReasonModal.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { formatDateTime, formatMoneyDecimal, ltr } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { entityOptions } from '../../lib/options.ts';
import { usePlanillaOptions } from '../../lib/referenceOptions.ts';
import { messageText } from '../../lib/server-messages.ts';
import { useCan } from '../../lib/useCan.ts';
import { useTabParam } from '../../lib/useTabParam.ts';
import {
  type BankFileRecord,
  type BankRow,
  bankRowsHook,
  invalidatePayments,
  type PaymentRow,
  useBankFile,
  useBankFiles,
  useBankOptions,
  useOffices,
  useOrderList,
  usePayments,
  useResolveBankRow,
  useRetryBankFile,
  useReversePayment,
  useUploadBankFile,
} from './api.ts';
import { ReceiptLink, Reference, referenceText } from './components.tsx';
import { isPayable, PaymentForm } from './PaymentForm.tsx';

function PaymentList() {
  const { t } = useTranslation();
  const can = useCan();
  const [reversing, setReversing] = useState<PaymentRow | null>(null);
  const reverse = useReversePayment();
  const columns: ListColumn<PaymentRow>[] = [
    { accessor: 'payDate', title: t('payments.fields.payDate'), sortable: true, render: (p) => formatDay(p.payDate) },
    { accessor: 'owner', title: t('payments.fields.owner'), render: (p) => p.entityName ?? p.contributorName },
    { accessor: 'bank', title: t('payments.fields.bank') },
    { accessor: 'bankReference', title: t('payments.fields.bankReference'), render: (p) => ltr(p.bankReference) },
    {
      accessor: 'amount',
      title: t('payments.fields.amount'),
      sortable: true,
      textAlign: 'right',
      render: (p) => <Money value={p.amount} />,
    },
    {
      accessor: 'receipt',
      title: t('payments.fields.receipt'),
      render: (p) => <ReceiptLink receipt={p.receipt} />,
    },
    { accessor: 'state', title: t('payments.fields.state'), render: (p) => t(`payments.paymentStates.${p.state}`) },
    {
      accessor: 'actions',
      title: '',
      render: (p) =>
        can('planilla-payments', 'DELETE') && p.state === 'REGISTRADO' ? (
          <Button size="xs" variant="subtle" color="red" onClick={() => setReversing(p)}>
            {t('payments.payments.reverse')}
          </Button>
        ) : null,
    },
  ];
  return (
    <ListPage<PaymentRow>
      title={t('payments.payments.title')}
      defaultSort="-id"
      searchLabel={t('payments.payments.search')}
      columns={columns}
      filters={[
        { name: 'from', label: t('payments.fields.from'), kind: 'date', w: { base: '100%', sm: 160 } },
        { name: 'to', label: t('payments.fields.to'), kind: 'date', w: { base: '100%', sm: 160 } },
      ]}
      useRows={usePayments}
      exportPath={can('planilla-payments', 'EXPORT') ? '/api/payments/export' : null}
      emptyText={t('payments.payments.empty')}
    >
      <ReasonModal
        opened={!!reversing}
        title={t('payments.payments.reverse')}
        message={t('payments.payments.reverseMessage')}
        confirmLabel={t('payments.payments.reverse')}
        loading={reverse.isPending}
        onClose={() => setReversing(null)}
        onConfirm={(reason) =>
          reverse.mutate(
            { id: reversing!.id, reason },
            {
              onSuccess: () => {
                setReversing(null);
                notifySuccess(t('payments.payments.reversed'));
              },
              onError: (err) => showApiError(err),
            },
          )
        }
      />
    </ListPage>
  );
}

function RegisterPayment() {
  const { t } = useTranslation();
  const options = usePlanillaOptions();
  const [entityId, setEntityId] = useState<string | null>(null);
  return (
    <Card withBorder>
      <Stack>
        <Select
          label={t('payments.fields.entity')}
          searchable
          data={entityOptions(options.data?.entities)}
          value={entityId}
          onChange={setEntityId}
          w={{ base: '100%', sm: 420 }}
        />
        {entityId && <PaymentForm key={entityId} owner={{ entityId: Number(entityId) }} />}
      </Stack>
    </Card>
  );
}

function ResolveRow({ fileId, row, onClose }: { fileId: number; row: BankRow; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const options = usePlanillaOptions();
  const [entityId, setEntityId] = useState<string | null>(null);
  const [orderId, setOrderId] = useState<string | null>(row.orderId ? String(row.orderId) : null);
  const orders = useOrderList({ entityId: entityId ?? undefined, pageSize: 100 }, !!entityId);
  const open = (orders.data?.items ?? []).filter(isPayable);
  const resolve = useResolveBankRow(fileId, row.id);
  const [discarding, setDiscarding] = useState(false);
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('payments.bank.resolveTitle', { row: row.rowNumber })}
      centered
      transitionProps={{ transition: 'fade' }}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        <Text size="sm">
          <Reference value={row.reference} /> · <Money value={row.amount} /> · {row.payDate ? formatDay(row.payDate) : ''}
        </Text>
        <Text size="sm" c="dimmed">
          {messageText({ message: row.message ?? '' })}
        </Text>
        <Select
          label={t('payments.fields.entity')}
          searchable
          data={entityOptions(options.data?.entities)}
          value={entityId}
          onChange={setEntityId}
        />
        <Select
          label={t('payments.bank.order')}
          data={open.map((o) => ({
            value: String(o.id),
            label: `${referenceText(o.reference, i18n.language)} · ${t(`payments.kinds.${o.kind}`)} · ${formatMoneyDecimal(o.balance)}`,
          }))}
          value={orderId}
          onChange={setOrderId}
          disabled={!entityId}
        />
        <Group justify="space-between">
          <Button variant="subtle" color="red" onClick={() => setDiscarding(true)}>
            {t('payments.bank.discard')}
          </Button>
          <Button
            disabled={!orderId}
            loading={resolve.isPending}
            onClick={() =>
              resolve.mutate(
                { decision: 'PAGAR', orderIds: [Number(orderId)] },
                {
                  onSuccess: () => {
                    notifySuccess(t('payments.bank.resolved'));
                    onClose();
                  },
                  onError: (err) => showApiError(err),
                },
              )
            }
          >
            {t('payments.bank.pay')}
          </Button>
        </Group>
      </Stack>
      <ReasonModal
        opened={discarding}
        title={t('payments.bank.discard')}
        message={t('payments.bank.discardMessage')}
        confirmLabel={t('payments.bank.discard')}
        onClose={() => setDiscarding(false)}
        onConfirm={(reason) =>
          resolve.mutate(
            { decision: 'DESCARTAR', reason },
            {
              onSuccess: () => {
                setDiscarding(false);
                onClose();
              },
              onError: (err) => showApiError(err),
            },
          )
        }
      />
    </Modal>
  );
}

/**
 * Matched rows whose payment the apply job did not register (NO_APLICADA, the reason on each row): while a
 * job applies them, its progress; otherwise how many and "Reintentar" (confirmed) for those who may pay.
 */
function NotApplied({ file }: { file: BankFileRecord }) {
  const { t } = useTranslation();
  const can = useCan();
  const retry = useRetryBankFile(file.id);
  // When the job ends the rows changed: their list is fetched again.
  const applying = useRef(file.applyJobId);
  useEffect(() => {
    if (applying.current != null && file.applyJobId == null) invalidatePayments();
    applying.current = file.applyJobId;
  }, [file.applyJobId]);
  if (file.applyJobId != null)
    return (
      <Alert color="blue" data-testid="bank-file-applying">
        <Group gap="sm">
          <Loader size="xs" aria-hidden />
          <Text size="sm">{t('payments.bank.applying')}</Text>
        </Group>
      </Alert>
    );
  if (file.notApplied === 0) return null;
  return (
    <Alert color="red" title={t('payments.bank.notAppliedTitle')} data-testid="bank-file-not-applied">
      <Stack gap="xs">
        <Text size="sm">{t('payments.bank.notAppliedHelp', { count: file.notApplied })}</Text>
        {can('planilla-payments', 'CREATE', 'ALL') && (
          <Group>
            <Button
              size="xs"
              loading={retry.isPending}
              onClick={() =>
                openConfirm({
                  title: t('payments.bank.retryTitle'),
                  children: <Text size="sm">{t('payments.bank.retryMessage', { count: file.notApplied })}</Text>,
                  labels: { confirm: t('payments.bank.retry'), cancel: t('common.cancel') },
                  onConfirm: () =>
                    retry.mutate(undefined, {
                      onSuccess: () => notifySuccess(t('payments.bank.retried')),
                      onError: (err) => showApiError(err),
                    }),
                })
              }
            >
              {t('payments.bank.retry')}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

function BankFileDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const file = useBankFile(id);
  const [resolving, setResolving] = useState<BankRow | null>(null);
  const f = file.data;
  const mayResolve = can('planilla-payments', 'CREATE', 'ALL');
  const columns: ListColumn<BankRow>[] = [
    { accessor: 'rowNumber', title: t('payments.bank.row') },
    { accessor: 'payDate', title: t('payments.fields.payDate'), render: (r) => (r.payDate ? formatDay(r.payDate) : '') },
    { accessor: 'reference', title: t('payments.fields.reference'), render: (r) => <Reference value={r.reference} /> },
    { accessor: 'amount', title: t('payments.fields.amount'), textAlign: 'right', render: (r) => <Money value={r.amount} /> },
    { accessor: 'state', title: t('payments.fields.state'), render: (r) => t(`payments.bankStates.${r.state}`) },
    { accessor: 'message', title: t('payments.bank.message') },
    {
      accessor: 'actions',
      title: '',
      render: (r) =>
        mayResolve && (bankRowPendingStates as readonly string[]).includes(r.state) && f?.applyJobId == null ? (
          <Button size="xs" onClick={() => setResolving(r)}>
            {t('payments.bank.resolve')}
          </Button>
        ) : null,
    },
  ];
  return (
    <Stack>
      {f && (
        <Text size="sm" data-testid="bank-file-summary">
          {t('payments.bank.summary', {
            rows: f.rows,
            matched: f.matched,
            unmatched: f.unmatched,
            mismatched: f.mismatched,
            errors: f.errors,
            resolved: f.resolved,
          })}
        </Text>
      )}
      {f && <NotApplied file={f} />}
      <ListPage<BankRow>
        title={t('payments.bank.rowsTitle', { name: f?.fileName ?? '' })}
        defaultSort="rowNumber"
        search={false}
        columns={columns}
        filters={[
          {
            name: 'state',
            label: t('payments.fields.state'),
            kind: 'enum',
            options: ['PENDIENTES', ...bankRowStates].map((s) => ({ value: s, label: t(`payments.bankStates.${s}`) })),
          },
        ]}
        useRows={bankRowsHook(id)}
        emptyText={t('payments.bank.noRows')}
      >
        {resolving && <ResolveRow fileId={id} row={resolving} onClose={() => setResolving(null)} />}
      </ListPage>
    </Stack>
  );
}

function BankFiles() {
  const { t } = useTranslation();
  const can = useCan();
  const offices = useOffices();
  const banks = useBankOptions();
  const [file, setFile] = useState<File | null>(null);
  const [bankId, setBankId] = useState<string | null>(null);
  const [office, setOffice] = useState<string | null>(null);
  const [current, setCurrent] = useState<number | null>(null);
  const upload = useUploadBankFile();
  const files = useBankFiles({ pageSize: 10 });
  // Files with matched rows whose payment was not registered (stranded money), whatever their age.
  const stranded = useBankFiles({ pageSize: 20, state: 'NO_APLICADAS' });
  // The office chosen, or the first one once the offices have loaded (none before: the button waits).
  const chosenOffice = office ?? offices.data?.items[0]?.office ?? null;
  return (
    <Stack>
      {can('planilla-payments', 'CREATE', 'ALL') && (
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            {t('payments.bank.importTitle')}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t('payments.bank.importHelp')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              label={t('payments.fields.bank')}
              placeholder={t('payments.bank.choosePlaceholder')}
              data={(banks.data ?? []).map((b) => ({ value: String(b.id), label: b.name }))}
              value={bankId}
              onChange={setBankId}
              searchable
              nothingFoundMessage={banks.isFetching ? t('common.loading') : t('payments.bank.noBanks')}
              required
            />
            <Select
              label={t('payments.fields.office')}
              data={(offices.data?.items ?? []).map((o) => o.office)}
              value={chosenOffice}
              onChange={setOffice}
              required
            />
            <FileInput
              label={t('payments.bank.file')}
              accept=".csv,text/csv"
              value={file}
              onChange={setFile}
              required
              clearable
            />
          </SimpleGrid>
          <Group justify="flex-end" mt="sm">
            <Button
              disabled={!file || !bankId || !chosenOffice}
              loading={upload.isPending}
              onClick={async () => {
                const content = await file!.text();
                upload.mutate(
                  { bankId: Number(bankId), office: chosenOffice!, content, fileName: file!.name },
                  {
                    onSuccess: (r) => {
                      notifySuccess(t('payments.bank.imported'));
                      setCurrent(r.id);
                      setFile(null);
                    },
                    onError: (err) => showApiError(err),
                  },
                );
              }}
            >
              {t('payments.bank.import')}
            </Button>
          </Group>
        </Card>
      )}
      {(stranded.data?.items.length ?? 0) > 0 && (
        <Alert color="red" title={t('payments.bank.strandedFiles')} data-testid="bank-files-not-applied">
          <Stack gap={4}>
            {(stranded.data?.items ?? []).map((f) => (
              <Group key={f.id} justify="space-between" wrap="nowrap">
                <Text size="sm">
                  {f.fileName} · {f.bank} · {formatDateTime(f.createdAt)} · {t('payments.bank.notAppliedTitle')}: {f.notApplied}
                </Text>
                <Button size="xs" variant="light" onClick={() => setCurrent(f.id)}>
                  {t('payments.bank.open')}
                </Button>
              </Group>
            ))}
          </Stack>
        </Alert>
      )}
      {(files.data?.items.length ?? 0) > 0 && (
        <Select
          label={t('payments.bank.chooseFile')}
          data={[
            ...(files.data?.items ?? []),
            // A stranded file opened from the alert may be older than the newest ten.
            ...(stranded.data?.items ?? []).filter((x) => !files.data?.items.some((y) => y.id === x.id)),
          ].map((f) => ({
            value: String(f.id),
            label: `${f.fileName} · ${f.bank} · ${formatDateTime(f.createdAt)}`,
          }))}
          value={current ? String(current) : null}
          onChange={(v) => setCurrent(v ? Number(v) : null)}
          w={{ base: '100%', sm: 420 }}
        />
      )}
      {current && <BankFileDetail key={current} id={current} />}
    </Stack>
  );
}

/** `/planilla/pagos-planillas`: payments registered, registering one, and the bank files to match. */
export function PaymentsPage() {
  const { t } = useTranslation();
  const can = useCan();
  // In the address (`?tab=bank`): the home page's stranded-money queue links to the bank files.
  const [tab, setTab] = useTabParam(['list', 'new', 'bank'] as const);
  return (
    <Stack>
      <PageHeader title={t('payments.payments.pageTitle')} description={t('payments.payments.description')} />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="list">{t('payments.payments.title')}</Tabs.Tab>
          {can('planilla-payments', 'CREATE') && <Tabs.Tab value="new">{t('payments.pay.title')}</Tabs.Tab>}
          {can('planilla-payments', 'READ', 'ALL') && <Tabs.Tab value="bank">{t('payments.bank.title')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="list" pt="md">
          <PaymentList />
        </Tabs.Panel>
        <Tabs.Panel value="new" pt="md">
          <RegisterPayment />
        </Tabs.Panel>
        <Tabs.Panel value="bank" pt="md">
          <BankFiles />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
