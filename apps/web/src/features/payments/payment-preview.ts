import { allocatePayment, type Cents, decimalToCents } from '@aporta/domain';

/** An open order as the API answers it as of the payment's date (its balance, interest and principal due then). */
export interface PreviewOrder {
  id: number;
  reference: string;
  kind: string;
  period: string;
  dueDate: string;
  interestDue: string;
  principalDue: string;
  balance: string;
}

export interface PaymentPreviewLine {
  order: PreviewOrder;
  interest: Cents;
  principal: Cents;
  /** The order's balance after the payment. */
  balanceAfter: Cents;
}

export interface PaymentPreview {
  lines: PaymentPreviewLine[];
  interest: Cents;
  principal: Cents;
  balanceAfter: Cents;
  /** What exceeds the orders' balances on the payment's date (> 0: the server refuses the payment). */
  excess: Cents;
}

/**
 * What registering `amount` against `orders` will do, to show before it is done: the same rule the server
 * applies (the domain's allocatePayment — oldest due date first, interest before principal), on the
 * balances the API answers as of the payment's date; in cents, so the lines add up exactly to the amount.
 */
export function previewPayment(amount: Cents, orders: readonly PreviewOrder[]): PaymentPreview {
  const { allocations, excess } = allocatePayment(
    amount,
    orders.map((o) => ({
      orderId: o.id,
      dueDate: o.dueDate,
      interestDue: decimalToCents(o.interestDue),
      principalDue: decimalToCents(o.principalDue),
    })),
  );
  const lines = [...orders]
    .sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.id - b.id)
    .map((order) => {
      const a = allocations.find((x) => x.orderId === order.id);
      const interest = a?.interest ?? 0n;
      const principal = a?.principal ?? 0n;
      return { order, interest, principal, balanceAfter: decimalToCents(order.balance) - interest - principal };
    });
  const sum = (f: (l: PaymentPreviewLine) => Cents) => lines.reduce((s, l) => s + f(l), 0n);
  return {
    lines,
    interest: sum((l) => l.interest),
    principal: sum((l) => l.principal),
    balanceAfter: sum((l) => l.balanceAfter),
    excess,
  };
}
