import { readFileSync } from 'node:fs';
import { SYSTEM_INSTITUTION } from '@aporta/domain';
import { count, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { departments, institutions, municipalities, userInstitutions, users } from '../db/schema/index.ts';
import { convertLegacyCalendars } from '../modules/settings/calendar-conversion.ts';
import { seedSettings } from '../modules/settings/service.ts';
import { systemActor, writeAudit } from '../platform/audit.ts';
import { hashPassword } from '../platform/passwords.ts';
import { seedAccounts } from './accounts.ts';
import { seedCatalogs } from './catalogs.ts';
import { seedContributorReference } from './contributors.ts';

const csvPath = new URL('./gt-divisiones.csv', import.meta.url);

/** Rows of gt-divisiones.csv: department code and name, 4-digit municipality code and name. */
export function readDivisions(): { depCode: string; depName: string; munCode: string; munName: string }[] {
  const lines = readFileSync(csvPath, 'utf8').trim().split(/\r?\n/).slice(1);
  return lines.map((line) => {
    const [depCode, depName, munCode, munName] = line.split(',').map((s) => s.trim());
    return { depCode, depName, munCode, munName };
  });
}

/** Seeds into an empty database what every installation needs; running it again changes nothing. */
export async function seedReference(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const [{ n }] = await tx.select({ n: count() }).from(departments);
    if (n === 0) {
      const rows = readDivisions();
      const deps = [...new Map(rows.map((r) => [r.depCode, r.depName])).entries()];
      const inserted = await tx
        .insert(departments)
        .values(deps.map(([code, name]) => ({ code, name })))
        .returning({ id: departments.id, code: departments.code });
      const depId = new Map(inserted.map((d) => [d.code, d.id]));
      await tx
        .insert(municipalities)
        .values(rows.map((r) => ({ code: r.munCode, name: r.munName, departmentId: depId.get(r.depCode)! })));
    }
    await tx
      .insert(institutions)
      .values([
        { code: SYSTEM_INSTITUTION, name: 'Sistema', kind: 'SISTEMA' },
        { code: 'PLAN', name: 'Plan de Prestaciones del Empleado Municipal', kind: 'INSTITUCION' },
      ])
      .onConflictDoNothing();
    await seedSettings(tx as unknown as Db);
    await convertLegacyCalendars(tx as unknown as Db);
    await seedCatalogs(tx);
    await seedContributorReference(tx);
  });
  await seedAccounts(db);
}

/**
 * Creates the first administrator (institution SISTEMA) when there is no user yet. Returns the
 * generated password when none was configured, so the caller prints it once.
 */
export async function ensureAdmin(db: Db, email: string, password: string | undefined, generate: () => string) {
  const [{ n }] = await db.select({ n: count() }).from(users);
  if (n > 0) return null;
  const plain = password ?? generate();
  await db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ email, firstName: 'Administrador', lastName: 'del Sistema', passwordHash: await hashPassword(plain) })
      .returning();
    await tx.insert(userInstitutions).values({
      userId: user.id,
      institutionId: sql`(select id from ${institutions} where code = ${SYSTEM_INSTITUTION})`,
      position: 0,
    });
    await writeAudit(tx, systemActor, { action: 'CREATE', entityType: 'user', entityId: user.id, after: { email } });
  });
  return { email, password: password ? null : plain };
}
