import { AppError, cuiApprovalMachine } from '@aporta/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contributors, cuiApprovalRequests, stateTransitions } from '../db/schema/index.ts';
import { attachUserToEntity, contributorFixtures, newCui } from '../modules/contributors/fixtures.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { createContext } from './context.ts';
import { authenticate } from './session.ts';
import { applyTransition, RACE_MESSAGE } from './transitions.ts';

let t: TestApp;
let maker: TestUser;
let checker: TestUser;
let checker2: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;

const approver = [
  { resource: 'cui-approval', action: 'READ', scope: 'ALL' },
  { resource: 'cui-approval', action: 'APPROVE', scope: 'ALL' },
] as const;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'error' });
  maker = await t.createUser({ grants: [...approver] });
  checker = await t.createUser({ grants: [...approver] });
  checker2 = await t.createUser({ grants: [...approver] });
  fx = await contributorFixtures(t.database.db);
});
afterAll(() => t.close());

/** A contributor of `entityId` with an open ALTA request made by `maker`. */
async function openRequest(entityId = fx.entityA.id): Promise<number> {
  const cui = newCui();
  const [c] = await t.database.db
    .insert(contributors)
    .values({
      cui,
      firstName: 'Ana',
      firstSurname: 'López',
      birthDate: '1990-01-01',
      sex: 'F',
      typeId: fx.typeId,
      entityId,
      cuiState: 'PENDIENTE',
    })
    .returning();
  const [r] = await t.database.db
    .insert(cuiApprovalRequests)
    .values({ contributorId: c.id, kind: 'ALTA', proposedCui: cui, requestedBy: maker.id })
    .returning();
  return r.id;
}

const decide = (token: string, id: number, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: `/api/cui-approvals/${id}/transitions`, token, payload });
const get = (token: string, id: number) => t.request({ method: 'GET', url: `/api/cui-approvals/${id}`, token });
const historyRows = (id: number) =>
  t.database.db
    .select()
    .from(stateTransitions)
    .where(and(eq(stateTransitions.entityType, 'cui_approval_request'), eq(stateTransitions.entityId, id)));

async function contextOf(user: TestUser) {
  const auth = await authenticate({ db: t.database.db, policy: t.app.authPolicy, token: user.token, ip: null });
  return createContext({ db: t.database.db, user: auth.user, actor: auth.actor, scope: 'ALL' });
}

describe('transitions on a record', () => {
  it('tells each user the transitions they may take: the checker both, the maker and a reader none', async () => {
    const id = await openRequest();
    const forChecker = (await get(checker.token, id)).json();
    expect(forChecker.transitions).toEqual([
      { key: 'CUI_APPROVE', to: 'APROBADO', label: 'Aprobar', commentRequired: false },
      { key: 'CUI_REJECT', to: 'RECHAZADO', label: 'Rechazar', commentRequired: true },
    ]);
    expect((await get(maker.token, id)).json().transitions).toEqual([]);
    const reader = await t.createUser({ grants: [{ resource: 'cui-approval', action: 'READ', scope: 'ALL' }] });
    expect((await get(reader.token, id)).json().transitions).toEqual([]);
    const list = await t.request({ method: 'GET', url: '/api/cui-approvals?state=PENDIENTE&pageSize=200', token: checker.token });
    expect(list.json().items.find((r: { id: number }) => r.id === id).transitions).toHaveLength(2);
  });

  it('offers and applies a transition only within the scope of its own permission', async () => {
    const inA = await openRequest(fx.entityA.id);
    const inB = await openRequest(fx.entityB.id);
    // Reads everything, approves only entity B's requests.
    const narrow = await t.createUser({
      grants: [
        { resource: 'cui-approval', action: 'READ', scope: 'ALL' },
        { resource: 'cui-approval', action: 'APPROVE', scope: 'ENTITY' },
      ],
    });
    await attachUserToEntity(t.database.db, narrow.id, fx.entityB.id);
    expect((await get(narrow.token, inA)).json().transitions).toEqual([]);
    expect((await get(narrow.token, inB)).json().transitions).toHaveLength(2);
    const outside = await decide(narrow.token, inA, { to: 'APROBADO' });
    expect(outside.statusCode, outside.body).toBe(404);
    expect(await historyRows(inA)).toEqual([]);
    expect((await decide(narrow.token, inB, { to: 'APROBADO' })).statusCode).toBe(200);
  });

  it('records who, when, from, to and the comment, in the history and the audit log, in one transaction', async () => {
    const id = await openRequest();
    const res = await decide(checker.token, id, {
      to: 'RECHAZADO',
      comment: '  Los nombres no coinciden  ',
      expected: 'PENDIENTE',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ state: 'RECHAZADO', reason: 'Los nombres no coinciden', transitions: [] });
    const history = await t.request({ method: 'GET', url: `/api/cui-approvals/${id}/history`, token: maker.token });
    expect(history.json().items).toEqual([
      expect.objectContaining({
        transition: 'CUI_REJECT',
        label: 'Rechazar',
        from: 'PENDIENTE',
        fromLabel: 'Pendiente',
        to: 'RECHAZADO',
        toLabel: 'Rechazado',
        comment: 'Los nombres no coinciden',
        actorId: checker.id,
        actorEmail: checker.email,
      }),
    ]);
    const [row] = await historyRows(id);
    expect(row.scopeEntityId).toBe(fx.entityA.id);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'cui_approval_request'), eq(auditLog.entityId, String(id))));
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'CUI_REJECT',
        actorId: checker.id,
        before: { state: 'PENDIENTE' },
        after: expect.objectContaining({ state: 'RECHAZADO', comment: 'Los nombres no coinciden', kind: 'ALTA' }),
        scopeEntityId: fx.entityA.id,
      }),
    ]);
  });

  it('refuses what the declaration does not allow: a decided request, a missing reason, the maker, a stale view', async () => {
    const id = await openRequest();
    const noReason = await decide(checker.token, id, { to: 'RECHAZADO', comment: '   ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.details).toEqual([
      {
        path: 'comment',
        message: 'Indique el motivo: es obligatorio para «Rechazar».',
        key: 'platform.transitionCommentRequired',
        params: { action: 'Rechazar' },
      },
    ]);
    const own = await decide(maker.token, id, { to: 'APROBADO' });
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toBe('No puede aprobar ni rechazar su propia solicitud; debe hacerlo otra persona.');
    const back = await decide(checker.token, id, { to: 'PENDIENTE' });
    expect(back.statusCode).toBe(400);
    const stale = await decide(checker.token, id, { to: 'APROBADO', expected: 'RECHAZADO' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.message).toBe(RACE_MESSAGE);
    expect((await decide(checker.token, id, { to: 'APROBADO' })).statusCode).toBe(200);
    const again = await decide(checker2.token, id, { to: 'RECHAZADO', comment: 'tarde' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('La solicitud de CUI ya está en estado «Aprobado» y no admite más cambios.');
    expect(await historyRows(id)).toHaveLength(1);
  });

  it('lets exactly one of two concurrent decisions win; the other gets 409', async () => {
    const id = await openRequest();
    const results = await Promise.all([
      decide(checker.token, id, { to: 'APROBADO', expected: 'PENDIENTE' }),
      decide(checker2.token, id, { to: 'RECHAZADO', comment: 'No coincide', expected: 'PENDIENTE' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await historyRows(id)).toHaveLength(1);
    const [req] = await t.database.db.select().from(cuiApprovalRequests).where(eq(cuiApprovalRequests.id, id));
    expect(req.state).toBe(results[0].statusCode === 200 ? 'APROBADO' : 'RECHAZADO');
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'on PostgreSQL: the loser read the old state, waits for the winner’s row lock, then matches no row (409)',
    async () => {
      const id = await openRequest();
      const [a, b] = await Promise.all([contextOf(checker), contextOf(checker2)]);
      const target = { machine: cuiApprovalMachine, table: cuiApprovalRequests, id, makerId: cuiApprovalRequests.requestedBy };
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      let applied!: () => void;
      const winnerApplied = new Promise<void>((r) => {
        applied = r;
      });
      // The winner moves the record and keeps its transaction open until released.
      const winner = t.database.db.transaction(async (tx) => {
        await applyTransition(a, { ...target, tx, to: 'APROBADO' });
        applied();
        await held;
      });
      await winnerApplied;
      // The loser reads PENDIENTE (the winner has not committed) and blocks on the row lock in its UPDATE.
      const loser = t.database.db
        .transaction((tx) => applyTransition(b, { ...target, tx, to: 'RECHAZADO', comment: 'x' }))
        .then(
          () => null,
          (e: unknown) => e,
        );
      for (let i = 0; i < 200; i++) {
        const r = await t.database.db.execute(
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if ((r as unknown as { rows: { n: number }[] }).rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      release();
      await winner;
      const error = await loser;
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'CONFLICT', message: RACE_MESSAGE });
      expect((await historyRows(id)).map((r) => r.toState)).toEqual(['APROBADO']);
    },
  );
});
