import { AppError, type BankOption, detail, msg } from '@aporta/domain';
import { and, asc, eq } from 'drizzle-orm';
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
