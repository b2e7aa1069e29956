import { formatDay, receiptRangeCreateSchema, receiptStates } from '@aporta/domain';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconFileTypePdf, IconFileTypeXls, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/DateField.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { type ListColumn, ListPage } from '../../components/ListPage.tsx';
import { Money } from '../../components/Money.tsx';
import { ReasonModal } from '../../components/ReasonModal.tsx';
import { SpanishDocumentHint } from '../../components/SpanishDocumentHint.tsx';
import type { ApiBody } from '../../lib/api.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  type CorteQuery,
  downloadCorte,
  downloadReceiptPdf,
  type RangeRow,
  type ReceiptRow,
  useCorte,
  useCreateRange,
  useRanges,
  useReceipts,
  useReissueReceipt,
  useVoidReceipt,
} from './api.ts';
import { StateBadge } from './components.tsx';

/** `/planilla/recibos-7b`: every receipt (never deleted), its PDF, and voiding with a reason. */
export function ReceiptsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [voiding, setVoiding] = useState<ReceiptRow | null>(null);
  const voidReceipt = useVoidReceipt();
  const reissue = useReissueReceipt();
  const columns: ListColumn<ReceiptRow>[] = [
    { accessor: 'series', title: t('payments.fields.series') },
    {
      accessor: 'number',
      title: t('payments.fields.number'),
      sortable: true,
      // A link to the receipt's PDF.
      render: (r) => (
        <Anchor
          component="button"
          type="button"
          size="sm"
          data-testid="receipt-number"
          aria-label={t('payments.receipts.openPdf', { number: `${r.series}-${r.number}` })}
          onClick={(e) => {
            e.stopPropagation();
            downloadReceiptPdf(r.id).catch((err) => showApiError(err));
          }}
        >
          {r.number}
        </Anchor>
      ),
    },
    { accessor: 'office', title: t('payments.fields.office') },
    { accessor: 'issuedAt', title: t('payments.fields.issuedAt'), sortable: true, kind: 'datetime' },
    { accessor: 'owner', title: t('payments.fields.owner'), render: (r) => r.entityName ?? r.contributorName },
    { accessor: 'amount', title: t('payments.fields.amount'), textAlign: 'right', render: (r) => <Money value={r.amount} /> },
    {
      accessor: 'state',
      title: t('payments.fields.state'),
      render: (r) => <StateBadge value={t(`payments.receiptStates.${r.state}`)} color={r.state === 'ANULADO' ? 'red' : 'teal'} />,
    },
    { accessor: 'voidReason', title: t('payments.reason') },
    {
      accessor: 'actions',
      // The receipts' PDFs are in Spanish: said once, over the column.
      title: <SpanishDocumentHint />,
      render: (r) => (
        <Group gap={4} wrap="nowrap">
          <Button size="xs" variant="subtle" onClick={() => downloadReceiptPdf(r.id).catch((e) => showApiError(e))}>
            PDF
          </Button>
          {can('receipts-7b', 'DELETE') && r.state === 'EMITIDO' && (
            <Button size="xs" variant="subtle" color="red" onClick={() => setVoiding(r)}>
              {t('payments.receipts.void')}
            </Button>
          )}
          {can('receipts-7b', 'CREATE') && r.state === 'ANULADO' && (
            <Button
              size="xs"
              variant="subtle"
              onClick={() =>
                reissue.mutate(
                  { paymentId: r.paymentId },
                  { onSuccess: () => notifySuccess(t('payments.receipts.reissued')), onError: (e) => showApiError(e) },
                )
              }
            >
              {t('payments.receipts.reissue')}
            </Button>
          )}
        </Group>
      ),
    },
  ];
  return (
    <ListPage<ReceiptRow>
      title={t('payments.receipts.title')}
      description={t('payments.receipts.description')}
      defaultSort="-id"
      searchLabel={t('payments.receipts.search')}
      columns={columns}
      filters={[
        {
          name: 'state',
          label: t('payments.fields.state'),
          kind: 'enum',
          options: receiptStates.map((s) => ({ value: s, label: t(`payments.receiptStates.${s}`) })),
        },
        { name: 'from', label: t('payments.fields.from'), kind: 'date', w: { base: '100%', sm: 160 } },
        { name: 'to', label: t('payments.fields.to'), kind: 'date', w: { base: '100%', sm: 160 } },
      ]}
      useRows={useReceipts}
      exportPath={can('receipts-7b', 'EXPORT') ? '/api/receipts/export' : null}
      emptyText={t('payments.receipts.empty')}
    >
      <ReasonModal
        opened={!!voiding}
        title={t('payments.receipts.voidTitle', { number: voiding?.number ?? '' })}
        message={t('payments.receipts.voidMessage')}
        confirmLabel={t('payments.receipts.void')}
        loading={voidReceipt.isPending}
        onClose={() => setVoiding(null)}
        onConfirm={(reason) =>
          voidReceipt.mutate(
            { id: voiding!.id, reason },
            {
              onSuccess: () => {
                setVoiding(null);
                notifySuccess(t('payments.receipts.voided'));
              },
              onError: (e) => showApiError(e),
            },
          )
        }
      />
    </ListPage>
  );
}

type RangeValues = {
  office: string;
  series: string;
  firstNumber: number | string;
  lastNumber: number | string;
  authorizationRef: string;
  authorizationDate: string;
};

/** An empty number box is no number: the schema names it in the words the server uses ("escriba un número entero"). */
const rangeNumber = (n: number | string) => (n === '' ? Number.NaN : Number(n));

/** The range as the API takes it (and as its schema checks it here). */
const toRange = (v: RangeValues): ApiBody<'/api/receipt-ranges'> => ({
  ...v,
  office: v.office.trim().toUpperCase(),
  series: v.series.trim().toUpperCase(),
  firstNumber: rangeNumber(v.firstNumber),
  lastNumber: rangeNumber(v.lastNumber),
});

function RangeForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateRange();
  const form = useForm<RangeValues>({
    initialValues: {
      office: 'CENTRAL',
      series: '',
      firstNumber: '',
      lastNumber: '',
      authorizationRef: '',
      authorizationDate: '',
    },
    validate: (values) => zod4Resolver(receiptRangeCreateSchema)(toRange(values)),
  });
  const fields = ['office', 'series', 'firstNumber', 'lastNumber', 'authorizationRef', 'authorizationDate'];
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('payments.ranges.new')}
      centered
      transitionProps={{ transition: 'fade' }}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form
        noValidate
        onSubmit={form.onSubmit((v) =>
          create.mutate(toRange(v), {
            onSuccess: () => {
              notifySuccess(t('payments.ranges.created'));
              onClose();
            },
            onError: (e) => showApiError(e, form, fields, { notify: 'always' }),
          }),
        )}
      >
        <Stack>
          <SimpleGrid cols={2}>
            <TextInput label={t('payments.fields.office')} required {...form.getInputProps('office')} />
            <TextInput label={t('payments.fields.series')} required {...form.getInputProps('series')} />
            <NumberInput
              label={t('payments.fields.firstNumber')}
              required
              min={1}
              allowDecimal={false}
              {...form.getInputProps('firstNumber')}
            />
            <NumberInput
              label={t('payments.fields.lastNumber')}
              required
              min={1}
              allowDecimal={false}
              {...form.getInputProps('lastNumber')}
            />
            <TextInput label={t('payments.fields.authorizationRef')} required {...form.getInputProps('authorizationRef')} />
            <DateField label={t('payments.fields.authorizationDate')} required {...form.getInputProps('authorizationDate')} />
          </SimpleGrid>
          <FormActions onCancel={onClose} submitLabel={t('payments.ranges.save')} loading={create.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}

function Corte({ ranges }: { ranges: RangeRow[] }) {
  const { t } = useTranslation();
  const [rangeId, setRangeId] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const query: CorteQuery | null = rangeId ? { rangeId, from: from || undefined, to: to || undefined } : null;
  const corte = useCorte(query);
  const c = corte.data;
  return (
    <Card withBorder data-testid="corte">
      <Title order={2} size="h4" mb="sm">
        {t('payments.ranges.corte')}
      </Title>
      <Group align="flex-end" wrap="wrap">
        <Select
          label={t('payments.ranges.range')}
          data={ranges.map((r) => ({ value: String(r.id), label: `${r.series} ${r.firstNumber}–${r.lastNumber} (${r.office})` }))}
          value={rangeId}
          onChange={setRangeId}
          w={{ base: '100%', sm: 280 }}
        />
        <DateField label={t('payments.fields.from')} value={from} onChange={(v) => setFrom(v ?? '')} w={170} />
        <DateField label={t('payments.fields.to')} value={to} onChange={(v) => setTo(v ?? '')} w={170} />
        <Button
          variant="default"
          leftSection={<IconFileTypePdf size={16} />}
          disabled={!query}
          onClick={() => query && downloadCorte(query, 'pdf').catch((e) => showApiError(e))}
        >
          PDF
        </Button>
        <Button
          variant="default"
          leftSection={<IconFileTypeXls size={16} />}
          disabled={!query}
          onClick={() => query && downloadCorte(query, 'xlsx').catch((e) => showApiError(e))}
        >
          Excel
        </Button>
        <SpanishDocumentHint />
      </Group>
      {c && (
        <Stack mt="md" gap="xs">
          <Table withTableBorder data-testid="corte-summary">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('payments.ranges.used')}</Table.Th>
                <Table.Th>{t('payments.ranges.voided')}</Table.Th>
                <Table.Th>{t('payments.ranges.remaining')}</Table.Th>
                <Table.Th>{t('payments.ranges.first')}</Table.Th>
                <Table.Th>{t('payments.ranges.last')}</Table.Th>
                <Table.Th ta="right">{t('payments.fields.amount')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <Table.Tr>
                <Table.Td data-testid="corte-used">{c.used}</Table.Td>
                <Table.Td data-testid="corte-voided">{c.voided}</Table.Td>
                <Table.Td>{c.remaining}</Table.Td>
                <Table.Td>{c.firstNumber ?? '—'}</Table.Td>
                <Table.Td>{c.lastNumber ?? '—'}</Table.Td>
                <Table.Td ta="right">
                  <Money value={c.amount} />
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          {c.voidedNumbers.length > 0 && (
            <Text size="sm">
              {t('payments.ranges.voidedNumbers')}:{' '}
              {c.voidedNumbers.map((v) => `${v.number}${v.reason ? ` (${v.reason})` : ''}`).join(', ')}
            </Text>
          )}
        </Stack>
      )}
    </Card>
  );
}

/** `/planilla/rangos-7b`: the authorised ranges (used, remaining, running out), registering one, and the corte de formas. */
export function RangesPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [creating, setCreating] = useState(false);
  const all = useRanges({ pageSize: 200 });
  const columns: ListColumn<RangeRow>[] = [
    { accessor: 'office', title: t('payments.fields.office') },
    { accessor: 'series', title: t('payments.fields.series'), sortable: true },
    { accessor: 'firstNumber', title: t('payments.fields.firstNumber'), sortable: true },
    { accessor: 'lastNumber', title: t('payments.fields.lastNumber') },
    { accessor: 'nextNumber', title: t('payments.ranges.next') },
    { accessor: 'used', title: t('payments.ranges.used'), textAlign: 'right' },
    {
      accessor: 'remaining',
      title: t('payments.ranges.remaining'),
      textAlign: 'right',
      render: (r) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {r.remaining}
          {r.runningOut && (
            <Badge color="orange" variant="light" c="var(--mantine-color-text)">
              {t('payments.ranges.runningOut')}
            </Badge>
          )}
        </Group>
      ),
    },
    { accessor: 'authorizationRef', title: t('payments.fields.authorizationRef') },
    {
      accessor: 'authorizationDate',
      title: t('payments.fields.authorizationDate'),
      render: (r) => formatDay(r.authorizationDate),
    },
    { accessor: 'state', title: t('payments.fields.state'), render: (r) => t(`payments.rangeStates.${r.state}`) },
  ];
  return (
    <Stack>
      <ListPage<RangeRow>
        title={t('payments.ranges.title')}
        description={t('payments.ranges.description')}
        defaultSort="-id"
        search={false}
        columns={columns}
        useRows={useRanges}
        emptyText={t('payments.ranges.empty')}
        actions={
          can('receipt-ranges-7b', 'CREATE', 'ALL') && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              {t('payments.ranges.new')}
            </Button>
          )
        }
      >
        {creating && <RangeForm onClose={() => setCreating(false)} />}
      </ListPage>
      <Corte ranges={all.data?.items ?? []} />
    </Stack>
  );
}
