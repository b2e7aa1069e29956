import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectionNames, PLANILLA_ENTITY_TYPE } from '@aporta/domain';
import { describe, expect, it } from 'vitest';
import auditEs from './locales/es.json' with { type: 'json' };

/**
 * A collection's name, when audit has no label of its own, is the catalogs module's (labels.ts falls back to
 * `catalogs.collections.*` in the one merged translation file): read as data, as the app reads it.
 */
const catalogsEs = JSON.parse(readFileSync(new URL('../catalogs/locales/es.json', import.meta.url), 'utf8')) as {
  catalogs: { collections: Record<string, string> };
};

const apiSrc = fileURLToPath(new URL('../../../../api/src', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    // Test helpers (src/test/) write codes of their own that the product never shows; the mail templates'
    // translations (platform/mail-locales/) have a button text called `action`, not an audit code.
    if (e.isDirectory()) return e.name === 'test' || e.name === 'mail-locales' ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [readFileSync(path, 'utf8')] : [];
  });
const quoted = (s: string) => [...s.matchAll(/'([^']+)'/g)].map((m) => m[1]);

/** Every code the API writes into the audit log: `action: '…'`, `const action = … ? 'A' : 'B'`, entity types. */
function writtenCodes() {
  const actions = new Set<string>();
  const types = new Set<string>([...collectionNames, PLANILLA_ENTITY_TYPE]);
  for (const src of sources(apiSrc)) {
    for (const m of src.matchAll(/action:\s*([^,}\n]+)/g)) for (const q of quoted(m[1])) actions.add(q);
    for (const m of src.matchAll(/const action = [^;]*\?([^;]+);/g)) for (const q of quoted(m[1])) actions.add(q);
    for (const m of src.matchAll(/entityType:\s*([^,}\n]+)/g)) for (const q of quoted(m[1])) types.add(q);
    // Rows inserted by SQL (the bulk upload): insert into audit_log (…) select …, 'ACTION', 'type', …
    for (const m of src.matchAll(/insert into audit_log[^`]*?select[^`]*?'([A-Z_]+)',\s*'([a-z_-]+)'/g)) {
      actions.add(m[1]);
      types.add(m[2]);
    }
  }
  return { actions: [...actions], types: [...types] };
}

describe('audit labels', () => {
  it('name every action and entity type the API writes, so the log never shows internal English codes', () => {
    const { actions, types } = writtenCodes();
    expect(actions).toEqual(expect.arrayContaining(['CREATE', 'CUI_REQUEST', 'LOGIN_FAILED']));
    expect(types).toEqual(expect.arrayContaining(['cui_approval_request', 'user', 'regions']));
    const actionLabels = auditEs.audit.actions as Record<string, string>;
    const typeLabels = { ...catalogsEs.catalogs.collections, ...auditEs.audit.entityTypes } as Record<string, string>;
    expect(actions.filter((a) => !actionLabels[a])).toEqual([]);
    expect(types.filter((e) => !typeLabels[e])).toEqual([]);
    expect(actionLabels.CUI_REQUEST).toBe('Solicitud de aprobación de CUI');
    expect(typeLabels.cui_approval_request).toBe('Solicitud de aprobación de CUI');
  });
});
