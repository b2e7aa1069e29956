import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layering rules of ARCHITECTURE.md, read from the source text of a repository tree (the real one, or a
 * copy in which architecture.test.ts plants one violation of each kind to prove each rule can fail).
 *
 * - api: a module's routes file is imported only by app.ts (the composition root);
 * - api: platform/ and db/ import no module and no seed (the route-walking tests kept in platform/ may use a
 *   module's test fixtures); seeds live in seed/, never in db/;
 * - api: a module imports another module only along MODULE_DEPENDENCIES, and that list has no cycle;
 * - api: a routes file never computes a scope or a permission (the access guard did, into request.ctx);
 * - domain: imports nothing of ours outside packages/domain, and no package but zod and big.js (its tests
 *   may use vitest, fast-check and node:);
 * - web: a feature imports only components/, lib/ and its own folder (WEB_FEATURE_EXEMPTIONS, which only
 *   shrinks, names the imports that predate the rule);
 * - everywhere: every relative import names its file with its extension, and every dynamic import names a
 *   literal path, so that the checker (and the reader) sees every dependency.
 */

/** Fields whose raw value is not for people: amounts, dates, periods, CUIs, payment references. */
const FORMATTED_FIELD =
  /(?:date|Date|At|period|Period|amount|Amount|total|Total|salary|Salary|balance|Balance|principal|Principal|interest|Interest|cui|Cui|reference|Reference)$/;

/** Such a field rendered as a JSX child as it arrived: `>{order.dueDate}<` (an attribute `value={x.amount}` is fine). */
const RAW_VALUE_CHILD =
  /(?<![=$])\{\s*([A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*\??\.(?:\w*(?:[dD]ate|At|[pP]eriod|[aA]mount|[tT]otal|[sS]alary|[bB]alance|[pP]rincipal|[iI]nterest|[cC]ui|[rR]eference)))\s*\}/g;

/**
 * A message shown as it arrived: an error's (`err.message`, `(q.error as Error).message`), a schema
 * issue's (`issue.message`, `issues[0].message`) or a detail's in JSX (`{d.message}`).
 */
const RAW_MESSAGE = /(?:\b(?:err|error|issue)|\bissues\[\d\]\??|\bi|as Error\))\.message\b|\{\s*\w+\.message\s*\}/g;

export interface Violation {
  rule:
    | 'routes-import'
    | 'layer'
    | 'module-dependency'
    | 'module-cycle'
    | 'route-scope'
    | 'domain-purity'
    | 'web-feature'
    | 'specifier'
    | 'dynamic-import'
    | 'seed-place'
    | 'web-contract'
    | 'web-messages'
    | 'web-formats';
  file: string;
  detail: string;
}

/**
 * Which modules each module may import (its services, types or helpers; never its routes). A module not
 * named here imports no other module. Adding an edge is a design decision: keep the graph acyclic (the check
 * fails on a cycle), and prefer moving what two modules share into platform/.
 */
export const MODULE_DEPENDENCIES: Record<string, readonly string[]> = {
  agreements: ['home', 'notifications', 'payments', 'settings'],
  'contributor-reports': ['contributors'],
  contributors: ['cui-approvals', 'home', 'renap', 'statistics'],
  'cui-approvals': ['auth', 'notifications', 'renap'],
  financial: ['agreements', 'documents', 'payments', 'settings'],
  institutions: ['roles', 'users'],
  jobs: ['notifications'],
  legal: ['documents', 'financial', 'home', 'notifications', 'payments'],
  notifications: ['auth'],
  payments: ['home', 'notifications', 'settings'],
  pensions: ['auth', 'documents', 'home', 'notifications', 'renap', 'settings', 'statistics', 'workflow'],
  planillas: ['documents', 'home', 'notifications', 'payments', 'settings'],
  roles: ['users'],
  signing: ['documents', 'notifications', 'settings'],
  template: ['chat', 'collections'],
  users: ['auth'],
  workflow: ['documents', 'home', 'notifications', 'settings'],
};

/**
 * Web imports from one feature into another that predate the rule (feature → imported file). Issue 26 moved
 * each into lib/ or components/ (and what modules add to one another's pages into src/registrations.ts), so
 * the list is empty; the test fails when one listed here is no longer imported, and on any import not listed.
 */
export const WEB_FEATURE_EXEMPTIONS: Record<string, readonly string[]> = {};

/** The packages the domain may import (its tests may also import vitest, fast-check and node: built-ins). */
const DOMAIN_PACKAGES = new Set(['zod', 'big.js']);
const DOMAIN_TEST_PACKAGES = new Set(['vitest', 'fast-check']);

/** Names that compute a scope or a permission: a routes file leaves them to the access guard and the service. */
const SCOPE_OR_PERMISSION =
  /\b(scopeFor|scopeOf|entityScopeCondition|inScope|requireAllScope|hasPermission|can)\s*\(|\bctx\.(scope|user\.permissions)\b/g;

const GUARD_FILES = new Set(['architecture.test.ts', 'test/architecture-rules.ts']);

const TREES = { api: 'apps/api/src', domain: 'packages/domain/src', web: 'apps/web/src' } as const;

/** The generated client types (apps/web/src/lib/api-contract.ts): not read as code, only for its schema names. */
const CONTRACT_FILE = 'lib/api-contract.ts';
/** The web files that talk HTTP themselves: the typed client, the file download and upload it cannot do, and the translations (static files, not the API). */
const WEB_HTTP_FILES = new Set(['lib/api.ts', 'lib/download.ts', 'lib/upload.ts', 'lib/i18n.ts']);

/** The names of the contract's schemas (`components.schemas`), as the generated file declares them. */
function contractNames(root: string): Set<string> {
  let text = '';
  try {
    text = readFileSync(join(root, TREES.web, CONTRACT_FILE), 'utf8');
  } catch {
    return new Set();
  }
  const start = text.indexOf('\n    schemas: {');
  const names = [...text.slice(start).matchAll(/^ {8}([A-Za-z_$][\w$]*)\??: /gm)].map((m) => m[1]);
  return new Set(names);
}

/** An `interface X` or a `type X = {` (an object shape), with its name. */
const SHAPE_DECLARATION =
  /(?:^|\n)\s*(?:export\s+)?(?:interface\s+([A-Za-z_$][\w$]*)|type\s+([A-Za-z_$][\w$]*)(?:<[^=]*>)?\s*=\s*\{)/g;
type Tree = keyof typeof TREES;

interface SourceFile {
  tree: Tree;
  /** Relative to its tree, with forward slashes. */
  rel: string;
  text: string;
  /** Relative specifiers resolved against the tree (may start with ../ when they leave it). */
  imports: { spec: string; target: string }[];
  /** Bare specifiers (packages, node: built-ins). */
  packages: string[];
  /** Dynamic imports whose argument is not one string literal. */
  opaqueImports: string[];
}

/** Source without comments, so a comment naming a function or a path is not mistaken for a use. */
export const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

const SPECIFIER = [
  /(?:^|[^\w.$])(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /(?:^|[^\w.$])import\s*['"]([^'"]+)['"]/g,
  /(?:^|[^\w.$])import\(\s*['"]([^'"]+)['"]\s*[,)]/g,
];

function readTree(root: string, tree: Tree): SourceFile[] {
  const base = join(root, TREES[tree]);
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(path);
      return /\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
    });
  return walk(base).map((path) => {
    const text = withoutComments(readFileSync(path, 'utf8'));
    const specs = SPECIFIER.flatMap((re) => [...text.matchAll(re)].map((m) => m[1]));
    const opaqueImports = [...text.matchAll(/(?:^|[^\w.$])import\(\s*([^'"\s)][^)]*)\)/g)].map((m) => m[1].trim());
    return {
      tree,
      rel: relative(base, path).split(sep).join('/'),
      text,
      imports: specs
        .filter((s) => s.startsWith('.'))
        .map((spec) => ({
          spec,
          target: relative(base, resolve(dirname(path), spec))
            .split(sep)
            .join('/'),
        })),
      packages: specs.filter((s) => !s.startsWith('.')),
      opaqueImports,
    };
  });
}

const moduleOf = (rel: string) => /^modules\/([^/]+)\//.exec(rel)?.[1] ?? null;
/** A module's routes file: `routes.ts`, or one of the `routes-<part>.ts` files it registers. */
const isRoutesFile = (rel: string) => /^modules\/[^/]+\/routes(-[a-z0-9-]+)?\.ts$/.test(rel);
const isTest = (rel: string) => /\.test\.tsx?$/.test(rel);
const packageName = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

/** The cycles of a dependency graph, each as a path a > b > … > a. */
export function cyclesOf(graph: Record<string, readonly string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const found: string[] = [];
  const visit = (node: string, path: string[]) => {
    state.set(node, 'open');
    for (const next of graph[node] ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].join(' > '));
      else if (!state.has(next)) visit(next, [...path, next]);
    }
    state.set(node, 'done');
  };
  for (const node of Object.keys(graph)) if (!state.has(node)) visit(node, [node]);
  return found;
}

export interface ArchitectureRules {
  moduleDependencies: Record<string, readonly string[]>;
  webExemptions: Record<string, readonly string[]>;
}

/** Every violation of the rules in the tree at `root` (a repository root). */
export function checkArchitecture(
  root: string,
  rules: ArchitectureRules = { moduleDependencies: MODULE_DEPENDENCIES, webExemptions: WEB_FEATURE_EXEMPTIONS },
): { violations: Violation[]; stale: string[]; files: number } {
  // The guard's own files hold violations as text (the planted cases): they are not read as code.
  const files = (Object.keys(TREES) as Tree[])
    .flatMap((tree) => readTree(root, tree))
    .filter((f) => !(f.tree === 'api' && GUARD_FILES.has(f.rel)) && !(f.tree === 'web' && f.rel === CONTRACT_FILE));
  const contract = contractNames(root);
  const out: Violation[] = [];
  const add = (f: SourceFile, rule: Violation['rule'], detail: string) =>
    out.push({ rule, file: `${TREES[f.tree]}/${f.rel}`, detail });
  const usedExemptions = new Set<string>();
  const usedDependencies = new Set<string>();

  for (const cycle of cyclesOf(rules.moduleDependencies))
    out.push({ rule: 'module-cycle', file: 'MODULE_DEPENDENCIES', detail: `ciclo entre módulos: ${cycle}` });

  for (const f of files) {
    for (const { spec } of f.imports) {
      if (!/\.(ts|tsx|mts|mjs|js|json|css)$/.test(spec)) add(f, 'specifier', `importa «${spec}» sin la extensión de su archivo`);
    }
    for (const arg of f.opaqueImports) add(f, 'dynamic-import', `import(${arg}) no nombra una ruta literal`);

    if (f.tree === 'api') {
      const from = moduleOf(f.rel);
      for (const { target } of f.imports) {
        if (isRoutesFile(target) && f.rel !== 'app.ts' && moduleOf(target) !== from)
          add(f, 'routes-import', `importa el archivo de rutas ${target}`);
        const layer = /^(platform|db)\//.exec(f.rel)?.[1];
        if (layer && !isTest(f.rel) && /^(modules|seed)\//.test(target)) add(f, 'layer', `${layer}/ importa ${target}`);
        const to = moduleOf(target);
        if (!from || !to || to === from || isTest(f.rel)) continue;
        if (rules.moduleDependencies[from]?.includes(to)) usedDependencies.add(`${from} → ${to}`);
        else add(f, 'module-dependency', `el módulo ${from} importa ${target}; ${to} no está entre sus dependencias`);
      }
      if (f.rel.startsWith('db/seed')) add(f, 'seed-place', 'las semillas viven fuera de db/ (en seed/)');
      if (isRoutesFile(f.rel)) {
        for (const m of f.text.matchAll(SCOPE_OR_PERMISSION))
          add(f, 'route-scope', `un archivo de rutas calcula un alcance o un permiso (${m[0].trim()})`);
      }
    }

    if (f.tree === 'domain') {
      for (const { target } of f.imports)
        if (target.startsWith('../')) add(f, 'domain-purity', `el dominio importa ${target} (fuera de packages/domain)`);
      for (const spec of f.packages) {
        const name = packageName(spec);
        const allowed =
          DOMAIN_PACKAGES.has(name) || (isTest(f.rel) && (DOMAIN_TEST_PACKAGES.has(name) || spec.startsWith('node:')));
        if (!allowed) add(f, 'domain-purity', `el dominio importa el paquete ${spec}`);
      }
    }

    if (f.tree === 'web' && !isTest(f.rel)) {
      // The web app speaks to the API only through the client typed by the contract (issue 26).
      if (!WEB_HTTP_FILES.has(f.rel) && /(?:^|[^\w.$])fetch\(/.test(f.text))
        add(f, 'web-contract', 'llama a fetch() por su cuenta: solo por el cliente de lib/api.ts');
      for (const m of f.text.matchAll(/(?:^|[^\w.$])api(?:\.(?:get|post|put|patch|delete))?\s*<(?!=)/g))
        add(f, 'web-contract', `da a la API el tipo de su respuesta a mano (${m[0].trim()}…); lo dice el contrato`);
      if (
        /^features\/[^/]+\//.test(f.rel) &&
        !/^features\/[^/]+\/api\.ts$/.test(f.rel) &&
        /(?:^|[^\w.$])api\.(?:get|post|put|patch|delete)\(/.test(f.text)
      )
        add(f, 'web-contract', 'una pantalla llama a la API por su cuenta: las llamadas de un módulo viven en su api.ts');
      // A form is validated in the browser by the domain schema its route validates the body with.
      if (/(?:^|[^\w.$])useForm\s*[<(]/.test(f.text) && !/(?:^|[^\w$])(?:zod4Resolver|safeParse)\(/.test(f.text))
        add(
          f,
          'web-contract',
          'un formulario (useForm) sin zod4Resolver ni safeParse: se valida con el esquema del dominio que usa la ruta',
        );
      // Money, dates, periods, CUIs and references are shown formatted, never as the API sends them (issue 28).
      for (const m of f.text.matchAll(RAW_VALUE_CHILD))
        add(f, 'web-formats', `muestra {${m[1]}} sin formato: use <Money>, <Period>, formatDate, displayCui o ltr`);
      for (const m of f.text.matchAll(/accessor:\s*'([\w.]+)'/g)) {
        if (!FORMATTED_FIELD.test(m[1].split('.').pop() ?? '')) continue;
        const start = f.text.lastIndexOf('{', m.index);
        let depth = 0;
        let end = start;
        for (let i = start; i < f.text.length; i++) {
          if (f.text[i] === '{') depth++;
          else if (f.text[i] === '}' && --depth === 0) {
            end = i;
            break;
          }
        }
        if (!/\brender\s*[:(]|\bkind\s*:/.test(f.text.slice(start, end)))
          add(f, 'web-formats', `la columna '${m[1]}' se muestra tal como llega: dele render o kind (money, date, period…)`);
      }
      // A message from the server or a domain schema is said in the user's language (issue 27).
      if (f.rel !== 'lib/form-validate.ts' && f.packages.includes('mantine-form-zod-resolver'))
        add(f, 'web-messages', 'valida con mantine-form-zod-resolver directamente: use zod4Resolver de lib/form-validate.ts');
      for (const m of f.text.matchAll(RAW_MESSAGE)) {
        const before = f.text.slice(Math.max(0, m.index - 120), m.index);
        // A JavaScript error's own text (a chunk that failed to load) is matched, never shown.
        const after = f.text.slice(m.index + m[0].length, m.index + m[0].length + 12);
        if (/^\s*:\s*String\(/.test(after)) continue;
        if (!/(?:(?:issueText|messageText)\([\w.?]*|message:\s*|\$|new ApiError\([^()]*)$/.test(before))
          add(f, 'web-messages', `muestra ${m[0]} tal como llegó: messageText/apiErrorText/issueText lo dicen en el idioma`);
      }
      for (const m of f.text.matchAll(/type\s+(\w+)\s*=\s*Record<string,\s*string\s*\|\s*number/g))
        if (f.rel !== 'lib/api.ts')
          add(f, 'web-contract', `declara una consulta suelta ${m[1]}: la consulta es la de la ruta (ApiQuery)`);
      for (const m of f.text.matchAll(SHAPE_DECLARATION)) {
        const name = m[1] ?? m[2];
        if (contract.has(name)) add(f, 'web-contract', `declara a mano ${name}, un esquema del contrato (Schemas['${name}'])`);
        else if (/^features\/[^/]+\/(api|keys)\.ts$/.test(f.rel))
          add(
            f,
            'web-contract',
            `declara la forma ${name} en ${f.rel.split('/').pop()}: las formas de la API vienen del contrato`,
          );
      }
    }

    if (f.tree === 'web') {
      const feature = /^features\/([^/]+)\//.exec(f.rel)?.[1];
      if (!feature) continue;
      for (const { target } of f.imports) {
        if (/^(components|lib)\//.test(target) || target.startsWith(`features/${feature}/`)) continue;
        if (rules.webExemptions[feature]?.includes(target)) {
          usedExemptions.add(`${feature} → ${target}`);
          continue;
        }
        add(f, 'web-feature', `la pantalla ${feature} importa ${target} (solo components/, lib/ y su carpeta)`);
      }
    }
  }
  // Entries of the two lists that nothing uses any more: removed, so that the lists stay true and only shrink.
  const unused = (list: Record<string, readonly string[]>, used: Set<string>) =>
    Object.entries(list).flatMap(([from, targets]) => targets.map((t) => `${from} → ${t}`).filter((e) => !used.has(e)));
  return {
    violations: out,
    stale: [...unused(rules.webExemptions, usedExemptions), ...unused(rules.moduleDependencies, usedDependencies)],
    files: files.length,
  };
}
