import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The one permission experience (issue 9), checked over every screen's source so a new page cannot
 * forget it: each list's table sits in a QueryState (a 403 is the "No autorizado" page, a failed load
 * an error with "Reintentar", never the table's "no rows" text); an export is offered only to holders
 * of EXPORT; dates are typed in the one DateField (dd/mm/aaaa), never a native or locale-bound input.
 */
const srcDir = fileURLToPath(new URL('..', import.meta.url));
const tsxFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? tsxFiles(path) : e.name.endsWith('.tsx') ? [path] : [];
  });
const features = tsxFiles(join(srcDir, 'features')).map((path) => ({
  name: relative(srcDir, path),
  text: readFileSync(path, 'utf8'),
}));
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

describe('screens share one way to show permissions and load states', () => {
  it('finds the screens', () => {
    expect(features.length).toBeGreaterThan(20);
  });

  it('puts every list table inside a QueryState', () => {
    const bare = features
      .filter((f) => count(f.text, /<DataTable[\s<]/g) > count(f.text, /<QueryState[^>]*\blist\b/g))
      .map((f) => f.name);
    expect(bare).toEqual([]);
  });

  it('offers an export only where the page asks for EXPORT', () => {
    const ungated = features.filter((f) => f.text.includes('<ExportButtons') && !f.text.includes("'EXPORT'")).map((f) => f.name);
    expect(ungated).toEqual([]);
  });

  it('types every date in the shared DateField', () => {
    const all = tsxFiles(srcDir).map((path) => ({ name: relative(srcDir, path), text: readFileSync(path, 'utf8') }));
    const native = all
      .filter((f) => f.name !== join('components', 'DateField.tsx'))
      .filter((f) => /type=["']date["']|\bDateInput\b|\bDatePickerInput\b|\bDateTimePicker\b/.test(f.text))
      .map((f) => f.name);
    expect(native).toEqual([]);
  });
});
