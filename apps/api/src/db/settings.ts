import { and, desc, eq, lte } from 'drizzle-orm';
import type { Db } from './client.ts';
import { settings } from './schema/index.ts';

/**
 * Initial values of the effective-dated settings (../shared/DOMAIN.md, every number marked config).
 * The institution's legal values were not available; administrators change these on screen.
 */
export const initialSettings: Record<string, { value: unknown; note: string }> = {
  'contributions.employeeRatePercent': { value: 7, note: 'Cuota laboral (%)' },
  'contributions.employerRatePercent': { value: 7, note: 'Cuota patronal (%)' },
  'paymentOrders.dueDayOfNextMonth': { value: 20, note: 'Día de vencimiento del mes siguiente al período' },
  'paymentOrders.annualInterestPercent': { value: 12, note: 'Interés anual simple por mora (%)' },
  'agreements.adminChargePercent': { value: 5, note: 'Cargo administrativo del convenio (%)' },
  'agreements.downPaymentPercent': { value: 10, note: 'Enganche del convenio (%)' },
  'agreements.maxInstallments': { value: 36, note: 'Máximo de cuotas mensuales' },
  'agreements.overdueInstallmentsForDefault': { value: 2, note: 'Cuotas vencidas para incumplimiento' },
  'survival.windowDaysAfterBirthday': { value: 30, note: 'Días tras el cumpleaños para presentar supervivencia' },
  'survival.graceDays': { value: 30, note: 'Días de gracia de supervivencia' },
  'planillas.salaryChangeWarningPercent': { value: 20, note: 'Cambio de salario que genera advertencia (%)' },
};

/** The value of `key` in force on `onDate` (YYYY-MM-DD), or undefined when none is. */
export async function getSetting<T>(db: Db, key: string, onDate: string): Promise<T | undefined> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.key, key), lte(settings.validFrom, onDate)))
    .orderBy(desc(settings.validFrom))
    .limit(1);
  return row?.value as T | undefined;
}
