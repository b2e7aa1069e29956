import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  grantsSchema,
  institutionInputSchema,
  passwordProblem,
  permissionMatrix,
  registerSchema,
  roleInputSchema,
  sortGrants,
} from './accounts.ts';
import { filterMenu, menuLeaves, menuTree } from './menu.ts';
import { mergeGrants, resourceKeys, resources } from './permissions.ts';

describe('password rule', () => {
  it('asks for the minimum length, naming it', () => {
    expect(passwordProblem('corta-1')).toBe('La contraseña debe tener al menos 10 caracteres.');
    expect(passwordProblem('doce-caracter', { minLength: 14 })).toMatch(/14 caracteres/);
    expect(passwordProblem('Suficiente-2026')).toBeNull();
  });

  it('refuses the e-mail and anything containing its local part, case-insensitively', () => {
    expect(passwordProblem('ana.lopez@muni.gt', { email: 'ana.lopez@muni.gt' })).toMatch(/igual al correo/);
    expect(passwordProblem('XANA.LOPEZ-2026', { email: 'Ana.Lopez@muni.gt' })).toMatch(/nombre de usuario/);
    expect(passwordProblem('Otra-Clave-2026', { email: 'ana.lopez@muni.gt' })).toBeNull();
  });

  it('accepts every long enough password that does not contain the local part', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 10, maxLength: 60 }), (pw) => {
        const problem = passwordProblem(pw, { email: 'zzqqxx@muni.gt' });
        expect(problem === null).toBe(!pw.toLowerCase().includes('zzqqxx'));
      }),
    );
  });
});

describe('account schemas', () => {
  it('register takes the spec names and normalises the e-mail', () => {
    const r = registerSchema.parse({ email: ' Ana@Muni.GT ', first_name: 'Ana', last_name: 'López', password: 'x' });
    expect(r.email).toBe('ana@muni.gt');
    expect(registerSchema.safeParse({ email: 'ana@muni.gt', first_name: '', last_name: 'L', password: 'x' }).success).toBe(false);
  });

  it('refuses a grant whose action does not exist for its resource, and repeated grants', () => {
    expect(grantsSchema.safeParse([{ resource: 'renap', action: 'DELETE', scope: 'ALL' }]).success).toBe(false);
    const dup = [
      { resource: 'users', action: 'READ', scope: 'ALL' },
      { resource: 'users', action: 'READ', scope: 'ENTITY' },
    ];
    expect(grantsSchema.safeParse(dup).success).toBe(false);
    const ok = roleInputSchema.parse({ name: ' Lectura ', grants: [{ resource: 'users', action: 'READ' }] });
    expect(ok).toEqual({ name: 'Lectura', description: '', grants: [{ resource: 'users', action: 'READ', scope: 'ALL' }] });
  });

  it('asks an ENTIDAD institution for its entity and no other kind', () => {
    const base = { code: 'muni-1', name: 'Municipalidad', roleIds: [] };
    expect(institutionInputSchema.safeParse({ ...base, kind: 'ENTIDAD' }).success).toBe(false);
    expect(institutionInputSchema.safeParse({ ...base, kind: 'INSTITUCION', entityId: 3 }).success).toBe(false);
    expect(institutionInputSchema.parse({ ...base, kind: 'ENTIDAD', entityId: 3 }).code).toBe('MUNI-1');
    expect(institutionInputSchema.safeParse({ ...base, kind: 'SISTEMA' }).success).toBe(false);
  });
});

describe('permission matrix', () => {
  it('lists every resource of the catalogue exactly once, grouped like the menu', () => {
    const groups = permissionMatrix();
    const rows = groups.flatMap((g) => g.rows.map((r) => r.resource));
    expect(rows.sort()).toEqual([...resourceKeys].sort());
    const menuGroups = menuTree.filter((m) => m.subItems).map((m) => m.id);
    expect(groups.map((g) => g.id)).toEqual(['general', ...menuGroups, 'other']);
    for (const g of groups) for (const r of g.rows) expect(r.actions).toEqual(resources[r.resource]);
  });

  it('sorts grants in catalogue order whatever the input order', () => {
    const grants = [
      { resource: 'users', action: 'EXPORT' },
      { resource: 'profile', action: 'READ' },
      { resource: 'users', action: 'READ' },
    ] as const;
    expect(sortGrants(grants).map((g) => `${g.resource}:${g.action}`)).toEqual(['profile:READ', 'users:READ', 'users:EXPORT']);
  });
});

describe('menu for a role', () => {
  it('a role granting only contributors: READ sees exactly that one entry', () => {
    const menu = filterMenu(menuTree, mergeGrants([{ resource: 'contributors', action: 'READ', scope: 'ALL' }]));
    expect(menuLeaves(menu).map((m) => m.name)).toEqual(['contributors']);
    expect(menu.filter((m) => !m.isTitle).map((m) => m.id)).toEqual(['contributorsGroup']);
  });

  it('a role granting only users: READ sees exactly "Usuarios"', () => {
    const menu = filterMenu(menuTree, mergeGrants([{ resource: 'users', action: 'READ', scope: 'ALL' }]));
    expect(menuLeaves(menu).map((m) => m.label)).toEqual(['menu.users']);
  });
});
