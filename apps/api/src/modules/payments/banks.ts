import { AppError, type BankOption, detail, msg } from '@aporta/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { banks } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';

/**
 * The «Bancos» catalogue as payments use it: the active banks a bank file may name. Reference data, read with
 * the bank-file permission (whoever imports a file may not hold the catalogue's own).
 */
export async function findBankOptions(ctx: RequestContext): Promise<BankOption[]> {
  return ctx.db
    .select({ id: banks.id, code: banks.code, name: banks.name })
    .from(banks)
    .where(eq(banks.isActive, true))
    .orderBy(asc(banks.name), asc(banks.id));
}

/** The active bank `id` names, or a 400 on the field `bankId`: a file is imported only for a bank in use. */
export async function activeBank(db: Db, id: number): Promise<{ id: number; name: string }> {
  const [bank] = await db
    .select({ id: banks.id, name: banks.name })
    .from(banks)
    .where(and(eq(banks.id, id), eq(banks.isActive, true)));
  if (!bank) {
    const message = msg('payments.bankNotActive');
    throw new AppError('VALIDATION', message, [{ path: 'bankId', ...detail(message) }]);
  }
  return bank;
}

/**
 * The bank a payment names: the catalogue's bank `bankId`, or the one whose code or name is `bank` (case
 * ignored; a name may leave out its company suffix: `Banco Industrial` is «Banco Industrial, S. A.»). Active
 * or not (a repeated payment is recognised whatever the catalogue says since); null when none is.
 */
export async function paymentBank(
  db: Db,
  input: { bankId?: number | null; bank?: string },
): Promise<{ id: number; name: string; isActive: boolean } | null> {
  const cols = { id: banks.id, name: banks.name, isActive: banks.isActive };
  if (input.bankId) {
    const [b] = await db.select(cols).from(banks).where(eq(banks.id, input.bankId));
    return b ?? null;
  }
  const named = input.bank?.trim();
  if (!named) return null;
  const [b] = await db
    .select(cols)
    .from(banks)
    .where(
      sql`upper(${banks.code}) = upper(${named}) or lower(${banks.name}) = lower(${named}) or lower(${banks.name}) like lower(${`${named.replace(/[\\%_]/g, '\\$&')},%`})`,
    )
    .orderBy(sql`${banks.isActive} desc`, asc(banks.id))
    .limit(1);
  return b ?? null;
}

/** A payment's bank refused: no bank named, or not an active bank of the catalogue (400 on `bankId`). */
export function bankRefused(named: boolean): AppError {
  const message = named ? msg('payments.bankNotActive') : msg('payments.bankRequired');
  return new AppError('VALIDATION', message, [{ path: 'bankId', ...detail(message) }]);
}
