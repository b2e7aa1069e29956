import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkArchitecture,
  cyclesOf,
  MODULE_DEPENDENCIES,
  type Violation,
  WEB_FEATURE_EXEMPTIONS,
} from './test/architecture-rules.ts';

/**
 * The layering rules of ARCHITECTURE.md (see test/architecture-rules.ts), checked on the real tree; then each
 * kind of violation is planted in a copy of the tree, one at a time, to prove the check fails on it (a guard
 * that cannot fail guards nothing).
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const show = (v: Violation[]) => v.map((x) => `${x.rule} ${x.file}: ${x.detail}`);

describe('architecture: the rules hold on the tree', () => {
  const result = checkArchitecture(repo);

  it('reads the three trees', () => {
    expect(result.files).toBeGreaterThan(500);
  });

  it('no violation: routes imported only by app.ts, layers, module dependencies, routes without scope, a pure domain, web features apart, visible imports', () => {
    expect(show(result.violations)).toEqual([]);
  });

  it('the allowed module dependencies have no cycle, and every exemption and dependency listed is still used', () => {
    expect(cyclesOf(MODULE_DEPENDENCIES)).toEqual([]);
    expect(result.stale).toEqual([]);
  });
});

describe('architecture: each planted violation is caught', () => {
  let copy: string;
  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'aporta-arch-'));
    for (const tree of ['apps/api/src', 'packages/domain/src', 'apps/web/src'])
      cpSync(join(repo, tree), join(copy, tree), { recursive: true, filter: (p) => !p.includes('node_modules') });
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  /** The violations of the copy with `text` added to `file` (created when missing), then the copy restored. */
  function planted(file: string, text: string, rules?: Parameters<typeof checkArchitecture>[1]): Violation[] {
    const path = join(copy, file);
    let before: string | null = null;
    try {
      before = readFileSync(path, 'utf8');
    } catch {
      before = null;
    }
    try {
      if (before === null) writeFileSync(path, text);
      else appendFileSync(path, `\n${text}\n`);
      return checkArchitecture(copy, rules).violations;
    } finally {
      if (before === null) rmSync(path);
      else writeFileSync(path, before);
    }
  }
  const rulesOf = (v: Violation[]) => [...new Set(v.map((x) => x.rule))];

  it('the untouched copy is clean', () => {
    expect(show(checkArchitecture(copy).violations)).toEqual([]);
  });

  const cases: { name: string; file: string; text: string; rule: Violation['rule'] }[] = [
    {
      name: 'a module imports another module’s routes',
      file: 'apps/api/src/modules/agreements/queries.ts',
      text: "import { paymentRoutes } from '../payments/routes.ts';",
      rule: 'routes-import',
    },
    {
      name: 'platform/ imports a module',
      file: 'apps/api/src/platform/list.ts',
      text: "export { listOrders } from '../modules/payments/orders.ts';",
      rule: 'layer',
    },
    {
      name: 'platform/ imports a seed',
      file: 'apps/api/src/platform/list.ts',
      text: "import { seedDemo } from '../seed/index.ts';",
      rule: 'layer',
    },
    {
      name: 'db/ imports a module, dynamically',
      file: 'apps/api/src/db/client.ts',
      text: "const late = await import('../modules/payments/orders.ts');",
      rule: 'layer',
    },
    {
      name: 'a seed file under db/',
      file: 'apps/api/src/db/seed-extra.ts',
      text: 'export const x = 1;\n',
      rule: 'seed-place',
    },
    {
      name: 'a module imports one it may not depend on',
      file: 'apps/api/src/modules/payments/orders.ts',
      text: "import { agreementDebt } from '../agreements/creation.ts';",
      rule: 'module-dependency',
    },
    {
      name: 'a routes file reads the request’s scope',
      file: 'apps/api/src/modules/payments/routes.ts',
      text: 'export const peek = (request: { ctx: { scope: string } }) => request.ctx.scope;',
      rule: 'route-scope',
    },
    {
      name: 'a routes file computes a scope',
      file: 'apps/api/src/modules/payments/routes.ts',
      text: "export const peek = (ctx: { scopeFor: (r: string, a: string) => string }) => ctx.scopeFor('payment-orders', 'READ');",
      rule: 'route-scope',
    },
    {
      name: 'an import without its file’s extension',
      file: 'apps/api/src/modules/payments/orders.ts',
      text: "import { receiptOf } from './receipts';",
      rule: 'specifier',
    },
    {
      name: 'a dynamic import of a computed path',
      file: 'apps/api/src/modules/payments/orders.ts',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the planted source holds a template literal
      text: 'const kind = "receipts";\nconst late = await import(`./${kind}.ts`);',
      rule: 'dynamic-import',
    },
    {
      name: 'the domain imports the API',
      file: 'packages/domain/src/money.ts',
      text: "import { listPage } from '../../../apps/api/src/platform/list.ts';",
      rule: 'domain-purity',
    },
    {
      name: 'the domain imports a package it may not',
      file: 'packages/domain/src/money.ts',
      text: "import { sql } from 'drizzle-orm';",
      rule: 'domain-purity',
    },
    {
      name: 'a web feature imports another feature',
      file: 'apps/web/src/features/agreements/components.tsx',
      text: "import { useCases } from '../legal/api.ts';",
      rule: 'web-feature',
    },
    {
      name: 'a web feature types an API answer by hand',
      file: 'apps/web/src/features/agreements/components.tsx',
      text: "export const load = () => api.get<{ id: number }>('/api/payment-agreements');",
      rule: 'web-contract',
    },
    {
      name: 'a web feature calls fetch itself',
      file: 'apps/web/src/features/agreements/components.tsx',
      text: "export const load = () => fetch('/api/payment-agreements');",
      rule: 'web-contract',
    },
    {
      name: 'a web file declares a contract schema by hand',
      file: 'apps/web/src/components/Extra.tsx',
      text: 'export interface PaymentOrder { id: number; total: string }',
      rule: 'web-contract',
    },
    {
      name: 'a screen calls the API outside its feature’s api.ts',
      file: 'apps/web/src/features/agreements/AgreementPage.tsx',
      text: "export const peek = () => api.get('/api/payment-agreements');",
      rule: 'web-contract',
    },
    {
      name: 'a form not validated by a domain schema',
      file: 'apps/web/src/features/agreements/ExtraForm.tsx',
      text: "import { useForm } from '@mantine/form';\nexport const useExtra = () => useForm({ initialValues: { note: '' } });",
      rule: 'web-contract',
    },
    {
      name: 'a screen shows a due date as the API sends it (2026-11-20)',
      file: 'apps/web/src/features/agreements/Extra.tsx',
      text: 'export const Due = ({ o }: { o: { dueDate: string } }) => <p>{o.dueDate}</p>;',
      rule: 'web-formats',
    },
    {
      name: 'a list column of amounts with neither render nor kind',
      file: 'apps/web/src/features/agreements/Extra.tsx',
      text: "export const columns = [{ accessor: 'balance', title: 'Saldo' }];",
      rule: 'web-formats',
    },
    {
      name: 'a screen shows a server message as it arrived (Spanish on an English screen)',
      file: 'apps/web/src/features/agreements/Extra.tsx',
      text: 'export const Failure = ({ err }: { err: Error }) => <p>{err.message}</p>;',
      rule: 'web-messages',
    },
    {
      name: 'a form validated by the resolver that does not translate',
      file: 'apps/web/src/features/agreements/ExtraForm.tsx',
      text: "import { zod4Resolver } from 'mantine-form-zod-resolver';\nexport const v = zod4Resolver;",
      rule: 'web-messages',
    },
    {
      name: 'a feature’s api.ts declares an answer shape',
      file: 'apps/web/src/features/agreements/api.ts',
      text: 'export type AgreementRow = { id: number; debtor: string };',
      rule: 'web-contract',
    },
  ];

  for (const c of cases) {
    it(`catches: ${c.name}`, () => {
      const found = planted(c.file, c.text);
      expect(rulesOf(found)).toEqual([c.rule]);
    });
  }

  it('catches a cycle in the allowed module dependencies', () => {
    const rules = {
      moduleDependencies: { ...MODULE_DEPENDENCIES, payments: [...MODULE_DEPENDENCIES.payments, 'agreements'] },
      webExemptions: WEB_FEATURE_EXEMPTIONS,
    };
    const found = planted(
      'apps/api/src/modules/payments/orders.ts',
      "import { agreementDebt } from '../agreements/creation.ts';",
      rules,
    );
    expect(show(found)).toEqual(['module-cycle MODULE_DEPENDENCIES: ciclo entre módulos: agreements > payments > agreements']);
  });

  it('a commented-out import is no violation', () => {
    expect(planted('apps/api/src/platform/list.ts', "// import { seedDemo } from '../seed/index.ts';")).toEqual([]);
  });
});
