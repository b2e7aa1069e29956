/** Small pieces of the payments screens; what other modules show too (order state, reason dialog) is in components/. */
import { formatPaymentReference } from '@aporta/domain';
import { Anchor, Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../lib/form-errors.ts';
import { ltr } from '../../lib/format.ts';
import { downloadReceiptPdf } from './api.ts';

export function StateBadge({ value, color }: { value: string; color: string }) {
  return (
    <Badge color={color} variant="light" c="var(--mantine-color-text)">
      {value}
    </Badge>
  );
}

/** A fresh idempotency key per submission attempt of a form (kept while the same form is retried). */
export const newIdempotencyKey = () => `web-${crypto.randomUUID()}`;

/**
 * A payment reference as text, grouped by four and isolated left to right (in Arabic its digit groups
 * keep their order): for labels and texts; elements use <Reference>.
 */
export const referenceText = (reference: string, language?: string) => ltr(formatPaymentReference(reference), language);

/** A payment reference on a page: grouped by four, read left to right whatever the page's direction. */
export function Reference({ value, testId }: { value: string; testId?: string }) {
  return (
    <span dir="ltr" style={{ unicodeBidi: 'isolate', fontFamily: 'var(--mantine-font-family-monospace)' }} data-testid={testId}>
      {formatPaymentReference(value)}
    </span>
  );
}

/** A 7-B receipt number (`A-1234`) as a link that opens its PDF; a voided one says so. */
export function ReceiptLink({
  receipt,
}: {
  receipt: { id: number; series: string; number: number; state: 'EMITIDO' | 'ANULADO' } | null | undefined;
}) {
  const { t } = useTranslation();
  if (!receipt) return <>—</>;
  const label = `${receipt.series}-${receipt.number}`;
  return (
    <>
      <Anchor
        component="button"
        type="button"
        size="sm"
        data-testid="receipt-link"
        aria-label={t('payments.receipts.openPdf', { number: label })}
        onClick={(e) => {
          e.stopPropagation();
          downloadReceiptPdf(receipt.id).catch((err) => showApiError(err));
        }}
      >
        <span dir="ltr">{label}</span>
      </Anchor>
      {receipt.state === 'ANULADO' ? ` (${t('payments.receiptStates.ANULADO')})` : ''}
    </>
  );
}
