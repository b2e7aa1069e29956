import * as domain from '@aporta/domain';
import { createJsonSchemaTransform, jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * The API's contract is the domain's zod schemas (issue 26). Each one exported from `@aporta/domain` as
 * `fooBarSchema` is named `FooBar` here, once, in zod's global registry: the OpenAPI document then
 * declares it under `components.schemas` (an input form as `FooBarInput` where it differs) and every
 * route refers to it, so the web client generated from the document (apps/web/src/lib/api-contract.ts)
 * speaks of the same named shapes as the server. Idempotent: tests build many apps in one process.
 */
export function nameContractSchemas(): number {
  let named = 0;
  // In name order: the order of a module namespace's keys differs between loaders (tsx, vitest), and a schema
  // exported under two names must get the same one everywhere.
  const exports = new Map<string, unknown>(Object.entries(domain));
  for (const name of [...exports.keys()].sort()) {
    const value = exports.get(name);
    if (!(value instanceof z.ZodType) || !name.endsWith('Schema')) continue;
    const id = contractName(name);
    const meta = z.globalRegistry.get(value);
    // The same schema exported under two names keeps the first name in order.
    if (meta?.id) continue;
    z.globalRegistry.add(value, { ...meta, id });
    named++;
  }
  return named;
}

/**
 * `paymentSchema` → `Payment`; `amountChangeInputSchema` → `AmountChangeRequest`, since the document names
 * the input form of `AmountChange` `AmountChangeInput` itself.
 */
export function contractName(exportName: string): string {
  const base = exportName.charAt(0).toUpperCase() + exportName.slice(1, -'Schema'.length);
  return base.endsWith('Input') ? `${base.slice(0, -'Input'.length)}Request` : base;
}

type Transform = typeof jsonSchemaTransform;
const inlineTransform = createJsonSchemaTransform({ schemaRegistry: new z.core.$ZodRegistry() });

/**
 * The OpenAPI transform: bodies and answers refer to the named schemas; a route's params, query and
 * headers are written out in full, since OpenAPI lists them one parameter at a time.
 */
export const contractTransform: Transform = (document) => {
  const { querystring, params, headers, ...rest } = (document.schema ?? {}) as Record<string, unknown>;
  const named = jsonSchemaTransform({ ...document, schema: rest } as Parameters<Transform>[0]);
  if (!document.schema || (!querystring && !params && !headers)) return named;
  const inline = inlineTransform({ ...document, schema: { querystring, params, headers } } as Parameters<Transform>[0]);
  return { ...named, schema: { ...(named.schema as object), ...(inline.schema as object) } } as ReturnType<Transform>;
};
