import { describe, expect, it } from 'vitest';
import { previewPayment } from './payment-preview.ts';

const order = (id: number, dueDate: string, interestDue: string, principalDue: string) => ({
  id,
  reference: `REF${id}`,
  kind: 'LABORAL',
  period: '2026-10',
  dueDate,
  interestDue,
  principalDue,
  balance: ((Number(interestDue) * 100 + Number(principalDue) * 100) / 100).toFixed(2),
});

describe('previewPayment', () => {
  it('splits a partial payment interest first, oldest order first, and the lines add up to the amount', () => {
    const p = previewPayment(1_000_000n, [
      order(2, '2026-11-20', '0.00', '9000.00'),
      order(1, '2026-10-20', '33.81', '17336.58'),
    ]);
    expect(p.lines.map((l) => [l.order.id, l.interest, l.principal, l.balanceAfter])).toEqual([
      [1, 3381n, 996619n, 737039n],
      [2, 0n, 0n, 900000n],
    ]);
    expect(p.interest + p.principal).toBe(1_000_000n);
    expect(p.balanceAfter).toBe(737039n + 900000n);
    expect(p.excess).toBe(0n);
  });

  it('pays off every order exactly, and says what exceeds the balances', () => {
    expect(previewPayment(1_733_658n + 3_381n, [order(1, '2026-10-20', '33.81', '17336.58')])).toMatchObject({
      balanceAfter: 0n,
      excess: 0n,
    });
    expect(previewPayment(1_800_000n, [order(1, '2026-10-20', '33.81', '17336.58')]).excess).toBe(1_800_000n - 1_737_039n);
  });
});
