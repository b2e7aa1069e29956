import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { attachUserToEntity, contributorFixtures } from './fixtures.ts';

/**
 * The contributor form's choices come from an endpoint its own permission opens (issue 9): a clerk who
 * may create contributors but not read the catalogues or contributors gets filled selects, only with
 * the entities of their scope; someone who may not save the form gets 403.
 */
let t: TestApp;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;
beforeAll(async () => {
  t = await createTestApp();
  fx = await contributorFixtures(t.database.db);
});
afterAll(() => t.close());

const get = (token: string) => t.request({ method: 'GET', url: '/api/contributors/form-options', token });
type Options = { types: unknown[]; entities: { id: number }[]; municipalities: unknown[]; budgetLines: unknown[] };

describe('contributor form options', () => {
  it('gives an ENTITY-scoped creator without catalogue or contributor READ the choices of their entity only', async () => {
    const clerk = await t.createUser({ grants: [{ resource: 'contributor-new', action: 'CREATE', scope: 'ENTITY' }] });
    await attachUserToEntity(t.database.db, clerk.id, fx.entityB.id);
    // The old endpoint the form used refuses this clerk: that is why its selects were empty.
    expect((await t.request({ method: 'GET', url: '/api/contributors/options', token: clerk.token })).statusCode).toBe(403);
    const res = await get(clerk.token);
    expect(res.statusCode).toBe(200);
    const body = res.json() as Options;
    expect(body.entities.map((e) => e.id)).toEqual([fx.entityB.id]);
    expect(body.types.length).toBeGreaterThan(0);
    expect(body.municipalities.length).toBeGreaterThan(300);
    expect(body.budgetLines.length).toBeGreaterThan(0);
  });

  it('opens for contributors UPDATE too, and gives a scope-ALL user every active entity', async () => {
    const editor = await t.createUser({ grants: [{ resource: 'contributors', action: 'UPDATE', scope: 'ALL' }] });
    const ids = ((await get(editor.token)).json() as Options).entities.map((e) => e.id);
    expect(ids).toEqual(expect.arrayContaining([fx.entityA.id, fx.entityB.id]));
  });

  it('takes the broader scope when both grants are held', async () => {
    const both = await t.createUser({
      grants: [
        { resource: 'contributor-new', action: 'CREATE', scope: 'ENTITY' },
        { resource: 'contributors', action: 'UPDATE', scope: 'ALL' },
      ],
    });
    await attachUserToEntity(t.database.db, both.id, fx.entityB.id);
    const ids = ((await get(both.token)).json() as Options).entities.map((e) => e.id);
    expect(ids).toEqual(expect.arrayContaining([fx.entityA.id, fx.entityB.id]));
  });

  it('refuses a reader who may not save the form, and answers 401 without a session', async () => {
    const reader = await t.createUser({
      grants: [
        { resource: 'contributors', action: 'READ', scope: 'ALL' },
        { resource: 'contributor-new', action: 'READ', scope: 'ALL' },
      ],
    });
    const res = await get(reader.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    expect((await t.request({ method: 'GET', url: '/api/contributors/form-options' })).statusCode).toBe(401);
  });
});
