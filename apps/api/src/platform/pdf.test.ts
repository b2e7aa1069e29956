import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedDocuments, users } from '../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { hasPoppler, pdfInfo, pdfPages, popplerMissing } from '../test/poppler.ts';
import { createContext } from './context.ts';
import {
  formatGuatemalaDateTime,
  generateReportPdf,
  newVerificationCode,
  normalizeVerificationCode,
  type ReportDefinition,
} from './pdf.ts';
import { authenticate } from './session.ts';

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'error' });
  user = await t.createUser({ system: true });
  await t.database.db.update(users).set({ firstName: 'Begoña', lastName: 'Pérez Núñez' }).where(eq(users.id, user.id));
});
afterAll(() => t.close());

async function ctxOf(u: TestUser) {
  const auth = await authenticate({ db: t.database.db, policy: t.app.authPolicy, token: u.token, ip: null });
  return createContext({ db: t.database.db, user: auth.user, actor: auth.actor, scope: 'ALL' });
}

const municipios = ['Santa Lucía Cotzumalguapa', 'San José Pinula', 'Mazatenango', 'Cobán', 'Petén — Flores'];
const report: ReportDefinition = {
  kind: 'test-report',
  title: 'Afiliados por municipio y estado (año fiscal)',
  filters: [
    { label: 'Departamento', value: 'Sacatepéquez' },
    { label: 'Estado', value: 'Activo' },
  ],
  tables: [
    {
      headers: ['Municipio', 'Departamento', 'Activos', 'Salarios (Q)'],
      rows: Array.from({ length: 180 }, (_, i) => [
        `${municipios[i % municipios.length]} ${i + 1}`,
        'Sacatepéquez',
        1000 + i,
        { cents: BigInt(123_456_789 + i) },
      ]),
      totals: ['Total', '', 999_999, { cents: 100_000_000_000n }],
    },
  ],
};

describe('PDF facility', () => {
  it('makes unguessable codes that survive retyping', () => {
    const codes = new Set(Array.from({ length: 2000 }, newVerificationCode));
    expect(codes.size).toBe(2000);
    for (const c of codes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
    expect(normalizeVerificationCode('abcd-efgh-jkmn-pq0o')).toBe('ABCDEFGHJKMNPQ00');
    expect(normalizeVerificationCode('ABCD EFGH JKMN PQ1L')).toBe('ABCDEFGHJKMNPQ11');
    expect(normalizeVerificationCode('ABCD-EFGH-JKMN-PQU1')).toBeNull();
    expect(normalizeVerificationCode('ABCD')).toBeNull();
  });

  it('prints dates in Guatemala time (UTC−6), whatever the server zone', () => {
    expect(formatGuatemalaDateTime(new Date('2026-03-01T05:30:00Z'))).toBe('28/02/2026 23:30');
    expect(formatGuatemalaDateTime(new Date('2026-12-31T18:05:00Z'))).toBe('31/12/2026 12:05');
  });

  it('registers each document: code, SHA-256 of its bytes, title, pages, author and date', async () => {
    const ctx = await ctxOf(user);
    const now = new Date('2026-03-01T05:30:00Z');
    const doc = await generateReportPdf(ctx, report, { fallbackInstitution: 'Aporta', now });
    expect(doc.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(doc.sha256).toBe(createHash('sha256').update(doc.pdf).digest('hex'));
    const [row] = await t.database.db
      .select()
      .from(generatedDocuments)
      .where(eq(generatedDocuments.code, doc.code.replaceAll('-', '')));
    expect(row).toMatchObject({
      sha256: doc.sha256,
      title: report.title,
      kind: 'test-report',
      pages: doc.pages,
      bytes: doc.pdf.length,
      generatedBy: user.id,
      generatedByEmail: user.email,
      filters: report.filters,
    });
    expect(row.generatedAt.toISOString()).toBe(now.toISOString());
    expect(doc.pages).toBeGreaterThan(2);

    const verify = await t.request({ method: 'GET', url: `/api/documents/verify/${doc.code.toLowerCase()}` });
    expect(verify.statusCode, verify.body).toBe(200);
    expect(verify.json()).toEqual({
      code: doc.code,
      title: report.title,
      generatedAt: now.toISOString(),
      pages: doc.pages,
      sha256: doc.sha256,
    });
    // Only what the paper shows: not who generated it, not the filters.
    expect(verify.body).not.toContain(user.email);
    for (const bad of ['ZZZZ-ZZZZ-ZZZZ-ZZZZ', 'no-es-un-codigo', 'x'.repeat(41)]) {
      const res = await t.request({ method: 'GET', url: `/api/documents/verify/${bad}` });
      expect(res.statusCode, bad).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, bad).toBeLessThan(500);
    }
  });

  it.skipIf(!hasPoppler)(
    `reads right from outside: title, filters, author, page x of y, code, headers on every page${hasPoppler ? '' : ` (${popplerMissing})`}`,
    async () => {
      const ctx = await ctxOf(user);
      const doc = await generateReportPdf(ctx, report, {
        fallbackInstitution: 'Aporta',
        now: new Date('2026-03-01T05:30:00Z'),
        verifyUrl: (c) => `http://127.0.0.1:3000/api/documents/verify/${c}`,
      });
      const info = pdfInfo(doc.pdf);
      expect(info.Title).toBe(report.title);
      expect(Number(info.Pages)).toBe(doc.pages);
      const pages = pdfPages(doc.pdf);
      expect(pages).toHaveLength(doc.pages);
      const first = pages[0];
      expect(first).toContain('Plan de Prestaciones del Empleado Municipal');
      expect(first).toContain(report.title);
      expect(first).toMatch(/Filtros:\s+Departamento: Sacatepéquez; Estado: Activo/);
      expect(first).toMatch(/Generado el:\s+28\/02\/2026 23:30 \(hora de Guatemala\)/);
      expect(first).toMatch(new RegExp(`Generado por:\\s+Begoña Pérez Núñez \\(${user.email.replaceAll('.', '\\.')}\\)`));
      expect(first).toContain(doc.code);
      expect(first).toContain('Santa Lucía Cotzumalguapa 1');
      expect(first).toContain('1,234,567.89');
      pages.forEach((text, i) => {
        expect(text, `página ${i + 1}`).toContain(`Página ${i + 1} de ${doc.pages}`);
        expect(text, `página ${i + 1}`).toContain(`Verificación: ${doc.code}`);
        expect(text, `página ${i + 1}`).toMatch(/Municipio\s+Departamento\s+Activos\s+Salarios \(Q\)/);
      });
      expect(pages.at(-1)).toMatch(/Total\s+999,999\s+1,000,000,000.00/);
      expect(pages.at(-1)).toContain(`Verificación en línea: http://127.0.0.1:3000/api/documents/verify/${doc.code}`);
    },
  );

  it.skipIf(!hasPoppler)(
    `lays out a document (contract, letter, receipt) without filters, money with Q, and signature blocks whole on one page${hasPoppler ? '' : ` (${popplerMissing})`}`,
    async () => {
      const ctx = await ctxOf(user);
      // Running text of every length moves the signature block across the page's end: it never splits.
      for (let n = 20; n <= 44; n += 2) {
        const doc = await generateReportPdf(
          ctx,
          {
            kind: 'test-document',
            layout: 'document',
            title: 'Contrato de prueba',
            filters: [{ label: 'No impreso', value: 'solo en el registro' }],
            fields: [{ label: 'Parte', value: 'Municipalidad de Mixco' }],
            tables: [{ headers: ['Concepto', 'Monto'], rows: [['Capital', { cents: 123_450n }]] }],
            sections: [
              { heading: 'Cláusulas', paragraphs: Array.from({ length: n }, (_, i) => `Cláusula ${i + 1}. Texto del contrato.`) },
            ],
            signatures: { heading: 'Firmas', lines: [{ caption: 'Por la entidad' }, { caption: 'Por la institución' }] },
          },
          { fallbackInstitution: 'Aporta', verifyUrl: (c) => `https://aporta.example/verificar?codigo=${c}` },
        );
        const pages = pdfPages(doc.pdf);
        const all = pages.join('\n');
        expect(all).not.toContain('Filtros:');
        expect(all).not.toContain('solo en el registro');
        expect(all).toMatch(/Parte:\s+Municipalidad de Mixco/);
        expect(all).toContain('Q 1,234.50');
        expect(all).toMatch(/Emitido el:\s+\d\d\/\d\d\/\d{4} \d\d:\d\d/);
        const signing = pages.filter((p) => /^\s*Firmas\s*$/m.test(p));
        expect(signing, `${n} cláusulas`).toHaveLength(1);
        expect(signing[0], `${n} cláusulas`).toContain('Por la entidad');
        expect(signing[0], `${n} cláusulas`).toContain('Por la institución');
      }
    },
  );
});
