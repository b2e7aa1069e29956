import { AppError } from '@aporta/domain';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseErrorOf, isUniqueViolation, registerConstraintRules, toAppError } from './db-errors.ts';
import { registerErrorHandling } from './errors.ts';

/**
 * The one mapping of PostgreSQL errors, on real errors from the embedded database as Drizzle raises
 * them (wrapped in a DrizzleQueryError): each SQLSTATE class becomes its 4xx with a Spanish message
 * naming the field, and the error handler never answers them as a 500.
 */

const client = new PGlite();
const db = drizzle(client);

const failure = async (query: ReturnType<typeof sql>) => {
  try {
    await db.execute(query);
  } catch (err) {
    return err;
  }
  throw new Error('the statement was expected to fail');
};

beforeAll(async () => {
  await db.execute(sql`create table parent (id int primary key)`);
  await db.execute(sql`create table child (
    id int primary key,
    code text constraint child_code_key unique,
    amount int constraint child_amount_check check (amount >= 0),
    parent_id int references parent(id),
    full_name text not null
  )`);
  await db.execute(sql`insert into parent values (1)`);
  await db.execute(sql`insert into child values (1, 'A', 0, 1, 'Ana')`);
  registerConstraintRules({ child_amount_check: { path: 'amount', message: 'El monto no puede ser negativo.' } });
});
afterAll(() => client.close());

describe('database errors', () => {
  it('finds the server error inside the Drizzle wrapper, with its code and constraint', async () => {
    const err = await failure(sql`insert into child values (2, 'A', 0, null, 'Beto')`);
    expect(databaseErrorOf(err)).toMatchObject({ code: '23505', constraint: 'child_code_key', table: 'child' });
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(err, 'child_code_key')).toBe(true);
    expect(isUniqueViolation(err, 'other_key')).toBe(false);
    expect(databaseErrorOf(new Error('x'))).toBeNull();
    expect(databaseErrorOf(Object.assign(new Error('socket'), { code: 'ECONNRESET' }))).toBeNull();
  });

  it('maps unique to DUPLICATE naming the column from the detail when no rule is registered', async () => {
    const e = toAppError(await failure(sql`insert into child values (2, 'A', 0, null, 'Beto')`), { subject: 'en «Hijos»' });
    expect(e).toMatchObject({ code: 'DUPLICATE', status: 409, details: [{ path: 'code' }] });
    expect(e!.message).toBe('Ya existe un registro en «Hijos» con ese valor de «code».');
  });

  it('uses the registered rule, and a per-call rule before it', async () => {
    const err = await failure(sql`insert into child values (3, 'B', -1, null, 'Carla')`);
    expect(toAppError(err)).toMatchObject({
      code: 'VALIDATION',
      message: 'El monto no puede ser negativo.',
      details: [{ path: 'amount', message: 'El monto no puede ser negativo.' }],
    });
    const own = toAppError(err, { constraints: { child_amount_check: { path: 'monto', message: 'Otro mensaje.' } } });
    expect(own).toMatchObject({ message: 'Otro mensaje.', details: [{ path: 'monto' }] });
  });

  it('tells a missing reference (400, naming the field) from a row still in use (409)', async () => {
    const missing = toAppError(await failure(sql`insert into child values (4, 'C', 0, 99, 'Dora')`));
    expect(missing).toMatchObject({ code: 'VALIDATION', status: 400, details: [{ path: 'parentId' }] });
    const inUse = toAppError(await failure(sql`delete from parent where id = 1`));
    expect(inUse).toMatchObject({ code: 'CONFLICT', status: 409 });
  });

  it('maps not-null, bad text and out of range numbers to VALIDATION', async () => {
    expect(toAppError(await failure(sql`insert into child values (5, 'D', 0, null, null)`))).toMatchObject({
      code: 'VALIDATION',
      message: 'Falta un valor obligatorio: «fullName».',
      details: [{ path: 'fullName' }],
    });
    expect(toAppError(await failure(sql`select 'abc'::int`))).toMatchObject({ code: 'VALIDATION' });
    expect(toAppError(await failure(sql`select 99999999999::int`))).toMatchObject({
      code: 'VALIDATION',
      message: 'Un número está fuera del rango permitido.',
    });
  });

  it('leaves what it does not know (our own SQL mistakes) as they are', async () => {
    expect(toAppError(await failure(sql`select * from no_such_table`))).toBeNull();
    const known = new AppError('NOT_FOUND');
    expect(toAppError(known)).toBe(known);
  });

  it('the error handler answers an unmapped constraint as its 4xx with the one error shape, never a 500', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    app.get('/dup', async () => db.execute(sql`insert into child values (1, 'Z', 0, null, 'Eva')`));
    app.get('/broken', async () => db.execute(sql`select * from no_such_table`));
    const dup = await app.inject({ method: 'GET', url: '/dup' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({
      error: {
        code: 'DUPLICATE',
        message: 'Ya existe un registro con ese valor de «id».',
        key: 'platform.dbDuplicateColumn',
        params: { column: 'id', subject: '' },
        details: [
          {
            path: 'id',
            message: 'Ya existe un registro con ese valor de «id».',
            key: 'platform.dbDuplicateColumn',
            params: { column: 'id', subject: '' },
          },
        ],
      },
    });
    const broken = await app.inject({ method: 'GET', url: '/broken' });
    expect(broken.statusCode).toBe(500);
    expect(broken.body).not.toMatch(/no_such_table/);
    await app.close();
  });
});
