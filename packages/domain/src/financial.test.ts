import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ageBucketOf, ageBuckets, solvencyOf } from './financial.ts';

describe('age buckets', () => {
  it('places the limits where the issue says: 1–30, 31–90, 91–180, > 180', () => {
    expect([0, 1, 30, 31, 90, 91, 180, 181, 5000].map(ageBucketOf)).toEqual([
      null,
      'd1_30',
      'd1_30',
      'd31_90',
      'd31_90',
      'd91_180',
      'd91_180',
      'd181',
      'd181',
    ]);
  });
  it('property: every overdue day count falls in exactly one bucket, and buckets grow with age', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 0, max: 20_000 }), (a, extra) => {
        const b1 = ageBucketOf(a);
        const b2 = ageBucketOf(a + extra);
        expect(b1).not.toBeNull();
        expect(ageBuckets.indexOf(b2!)).toBeGreaterThanOrEqual(ageBuckets.indexOf(b1!));
      }),
    );
  });
});

describe('solvency ("al día")', () => {
  it('refuses with the reason when an order is overdue, an instalment of an agreement included', () => {
    expect(solvencyOf({ overdueOrders: 2, overdueAmount: 123_450n, currentAgreement: 'CP-2026-000001' })).toEqual({
      solvent: false,
      reason: {
        key: 'financial.notSolventMany',
        params: { count: 2, amount: '123450' },
        text: 'La entidad tiene 2 órdenes vencidas por Q 1,234.50: no está al día.',
      },
    });
    expect(solvencyOf({ overdueOrders: 1, overdueAmount: 5_000n, currentAgreement: null }).reason).toEqual({
      key: 'financial.notSolventOne',
      params: { amount: '5000' },
      text: 'La entidad tiene 1 orden vencida por Q 50.00: no está al día.',
    });
  });
  it('is al día with no overdue order, naming a current agreement when there is one', () => {
    expect(solvencyOf({ overdueOrders: 0, overdueAmount: 0n, currentAgreement: null }).reason).toEqual({
      key: 'financial.solventNoOverdue',
      text: 'Al día: sin órdenes de pago vencidas.',
    });
    expect(solvencyOf({ overdueOrders: 0, overdueAmount: 0n, currentAgreement: 'CP-2026-000001' })).toMatchObject({
      solvent: true,
      reason: {
        key: 'financial.solventWithAgreement',
        params: { agreement: 'CP-2026-000001' },
        text: 'Al día: convenio de pago CP-2026-000001 vigente y sin cuotas vencidas.',
      },
    });
  });
});
