import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { clientTypesSource, readClientTypes } from './client-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('the web client is typed by the API contract', () => {
  it('apps/web/src/lib/api-contract.ts is what the routes and the domain schemas declare now (else: npm run contract)', async () => {
    const now = await clientTypesSource(t.app.swagger());
    const committed = readClientTypes();
    // A diff of two 2 MB strings is unreadable: the first line that differs says which route drifted.
    const a = now.split('\n');
    const b = committed.split('\n');
    const first = a.findIndex((line, i) => line !== b[i]);
    expect(first === -1 && a.length === b.length ? null : { line: first + 1, now: a[first], committed: b[first] }).toBeNull();
  });

  it('every body and answer refers to a schema the domain names, none declared inline as an open record', () => {
    const doc = t.app.swagger() as {
      paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
    };
    const open: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(methods)) {
        const schema = op.responses?.['200']?.content?.['application/json']?.schema as Record<string, unknown> | undefined;
        if (schema && schema.type === 'object' && !schema.properties && schema.additionalProperties !== false)
          open.push(`${method.toUpperCase()} ${path}`);
      }
    expect(open).toEqual([]);
  });
});
