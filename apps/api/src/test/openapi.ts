import type { FastifyInstance } from 'fastify';

const COMPONENT = '#/components/schemas/';

/**
 * The app's OpenAPI document with every `$ref` to a named schema written out where it is used, for the tests
 * that walk the route table (inputs, dates, ranges, money, exports): they read each route's fields, and since
 * issue 26 bodies and answers refer to the domain's named schemas. A schema that refers to itself is cut at
 * its second appearance (an empty schema).
 */
export function inlineDocument<T>(document: T): T {
  const schemas = ((document as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {}) as Record<
    string,
    unknown
  >;
  const walk = (node: unknown, stack: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, stack));
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith(COMPONENT)) {
      const name = ref.slice(COMPONENT.length);
      if (stack.includes(name) || !(name in schemas)) return {};
      const { $ref: _ref, ...rest } = node as Record<string, unknown>;
      return { ...(walk(schemas[name], [...stack, name]) as object), ...(walk(rest, stack) as object) };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, stack)]));
  };
  return walk(document, []) as T;
}

const tables = new WeakMap<FastifyInstance, unknown>();

/** The route table as the tests read it: the app's OpenAPI document, its named schemas written out (once per app). */
export function routeTable<T = unknown>(app: FastifyInstance): T {
  if (!tables.has(app)) tables.set(app, inlineDocument(app.swagger()));
  return tables.get(app) as T;
}
