import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actions, allPermissions, type Grant, mergeGrants, resourceKeys, resources, scopeRank, scopes } from './permissions.ts';
import { ceilingOf, covers, describeGrants, grantsBeyond, grantsOf, holdsGrant } from './privilege.ts';

const validGrant = fc.constantFrom(...resourceKeys).chain((resource) =>
  fc.record({
    resource: fc.constant(resource),
    action: fc.constantFrom(...resources[resource]),
    scope: fc.constantFrom(...scopes),
  }),
) as fc.Arbitrary<Grant>;
const grantList = fc.array(validGrant, { maxLength: 40 });

describe('privilege ceiling', () => {
  it('holds a grant only with the same resource and action and a scope at least as broad', () => {
    const perms = mergeGrants([{ resource: 'users', action: 'UPDATE', scope: 'REGION' }]);
    expect(holdsGrant(perms, { resource: 'users', action: 'UPDATE', scope: 'REGION' })).toBe(true);
    expect(holdsGrant(perms, { resource: 'users', action: 'UPDATE', scope: 'ENTITY' })).toBe(true);
    expect(holdsGrant(perms, { resource: 'users', action: 'UPDATE', scope: 'ALL' })).toBe(false);
    expect(holdsGrant(perms, { resource: 'users', action: 'CREATE', scope: 'ENTITY' })).toBe(false);
    expect(holdsGrant(perms, { resource: 'roles', action: 'UPDATE', scope: 'ENTITY' })).toBe(false);
  });

  it('names exactly the grants the actor lacks, whatever the grants (property)', () => {
    fc.assert(
      fc.property(grantList, grantList, (held, wanted) => {
        const perms = mergeGrants(held);
        const beyond = grantsBeyond(perms, wanted);
        for (const g of wanted) {
          const mine = perms[g.resource]?.[g.action];
          const ok = !!mine && scopeRank[mine] >= scopeRank[g.scope];
          expect(beyond.includes(g)).toBe(!ok);
        }
      }),
    );
  });

  it('lets anyone give what they hold and never more: a user is within their own ceiling (property)', () => {
    fc.assert(
      fc.property(grantList, (held) => {
        const perms = mergeGrants(held);
        expect(grantsBeyond(perms, held)).toEqual([]);
        expect(covers(perms, perms)).toBe(true);
        expect(mergeGrants(grantsOf(perms))).toEqual(perms);
      }),
    );
  });

  it('is transitive and monotone: adding grants never shrinks what may be given (property)', () => {
    fc.assert(
      fc.property(grantList, grantList, grantList, (a, b, wanted) => {
        const small = mergeGrants(a);
        const big = mergeGrants([...a, ...b]);
        expect(covers(big, small)).toBe(true);
        expect(grantsBeyond(big, wanted).length).toBeLessThanOrEqual(grantsBeyond(small, wanted).length);
      }),
    );
  });

  it('gives a SISTEMA member every permission and nobody else more than their own', () => {
    const sys = ceilingOf({ permissions: {}, institucion: ['PLAN', 'SISTEMA'] });
    expect(sys.isSuperAdmin).toBe(true);
    expect(covers(sys.permissions, allPermissions())).toBe(true);
    const plain = ceilingOf({ permissions: { users: { READ: 'ALL' } }, institucion: ['PLAN'] });
    expect(plain.isSuperAdmin).toBe(false);
    expect(covers(plain.permissions, allPermissions())).toBe(false);
    expect(grantsOf(allPermissions()).length).toBe(resourceKeys.reduce((n, r) => n + resources[r].length, 0));
    expect(actions.length).toBeGreaterThan(0);
  });

  it('describes the missing grants in Spanish, at most a few', () => {
    expect(
      describeGrants([
        { resource: 'roles', action: 'UPDATE', scope: 'ALL' },
        { resource: 'users', action: 'CREATE', scope: 'REGION' },
      ]),
    ).toBe('users: crear (sus regiones), roles: modificar (todo)');
    const many = grantsOf(allPermissions());
    expect(describeGrants(many, 2)).toMatch(/ y \d+ más$/);
  });
});
