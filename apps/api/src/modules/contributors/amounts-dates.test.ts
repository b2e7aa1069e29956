import { readFile } from 'node:fs/promises';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contributors, municipalEntities } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { contributorFixtures, newCui } from './fixtures.ts';

// Issue 9, class 5: money and dates in API bodies are parsed by the domain's one parser, never guessed.

let t: TestApp;
let admin: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
});
afterAll(() => t.close());

const body = (over: Record<string, unknown> = {}) => ({
  cui: newCui(),
  firstName: 'Ana',
  firstSurname: 'López',
  birthDate: '1990-05-01',
  sex: 'F',
  typeId: fx.typeId,
  ...over,
});

const create = (payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/contributors', token: admin.token, payload });
const update = (id: number, payload: Record<string, unknown>) =>
  t.request({ method: 'PUT', url: `/api/contributors/${id}`, token: admin.token, payload });

describe('amounts, dates and NIT in contributor bodies (create and update)', () => {
  it('stores 1,234.50 as 1234.50 and refuses the ambiguous salaries with a 400 naming the field', async () => {
    const ok = await create(body({ salary: 'Q 1,234.50' }));
    expect(ok.statusCode).toBe(201);
    const id = ok.json().contributor.id;
    expect(ok.json().contributor.salary).toBe('1234.50');
    for (const salary of ['1.234,50', '12,34', '1.234', '12.3456', '1,23,4', 1234.567, '-5']) {
      for (const res of [await create(body({ salary })), await update(id, body({ salary }))]) {
        expect(res.statusCode, String(salary)).toBe(400);
        // A reason built from the value typed (textWith): keyed with the reason as its parameter.
        expect(res.json().error.details, String(salary)).toContainEqual({
          path: 'salary',
          message: expect.stringMatching(/^Salario: El monto/),
          key: 'contributors.salaryInvalid',
          params: { reason: expect.stringMatching(/^El monto/) },
        });
      }
    }
    const upd = await update(id, body({ cui: ok.json().contributor.cui, salary: 2500.5 }));
    expect(upd.statusCode).toBe(200);
    const got = await t.request({ method: 'GET', url: `/api/contributors/${id}`, token: admin.token });
    expect(got.json().salary).toBe('2500.50');
  });

  it('refuses impossible or non-ISO dates in both date fields', async () => {
    for (const over of [{ birthDate: '1980' }, { birthDate: '31/02/1990' }, { hireDate: '1980' }, { hireDate: '2020-02-30' }]) {
      const res = await create(body(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().error.details[0].path).toBe(Object.keys(over)[0]);
    }
  });

  it('stores one NIT form: 576937-K, 0576937-K and 000576937-K are the same NIT', async () => {
    const nits: string[] = [];
    for (const nit of ['576937-K', '0576937-K', '000576937-k']) {
      const res = await create(body({ nit }));
      expect(res.statusCode).toBe(201);
      nits.push(res.json().contributor.nit);
    }
    expect(nits).toEqual(['576937K', '576937K', '576937K']);
  });
});

describe('migration 0005_nit_normal_form', () => {
  it('rewrites the NITs stored before normalisation to the one form, in contributors and entities', async () => {
    const db = t.database.db;
    const cuis = [newCui(), newCui(), newCui(), newCui()];
    const stored = ['0576937K', '000576937K', '576937K', '00'];
    await db.insert(contributors).values(
      cuis.map((cui, i) => ({
        cui,
        nit: stored[i],
        firstName: 'A',
        firstSurname: 'B',
        birthDate: '1990-01-01',
        sex: 'M' as const,
        typeId: fx.typeId,
      })),
    );
    await db.update(municipalEntities).set({ nit: '000576937-K' }).where(eq(municipalEntities.id, fx.entityA.id));
    await db.update(municipalEntities).set({ nit: '8977112-0' }).where(eq(municipalEntities.id, fx.entityB.id));
    const file = new URL('../../../drizzle/0005_nit_normal_form.sql', import.meta.url);
    for (const statement of (await readFile(file, 'utf8')).split('--> statement-breakpoint')) {
      // Replayed on today's schema: the upload staging table it also rewrote was replaced by import_rows
      // in migrations 0012-0014, which copy its rows as they stand after this one.
      if (statement.includes('contributor_import_rows')) continue;
      await db.execute(sql.raw(statement));
    }
    const rows = await db
      .select({ cui: contributors.cui, nit: contributors.nit })
      .from(contributors)
      .where(inArray(contributors.cui, cuis));
    expect(Object.fromEntries(rows.map((r) => [r.cui, r.nit]))).toEqual(
      Object.fromEntries(cuis.map((cui, i) => [cui, ['576937K', '576937K', '576937K', '00'][i]])),
    );
    const ents = await db
      .select({ id: municipalEntities.id, nit: municipalEntities.nit })
      .from(municipalEntities)
      .where(inArray(municipalEntities.id, [fx.entityA.id, fx.entityB.id]));
    expect(Object.fromEntries(ents.map((e) => [e.id, e.nit]))).toEqual({
      [fx.entityA.id]: '576937-K',
      [fx.entityB.id]: '8977112-0',
    });
  });
});
