import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { detail, interpolate, keyOfText, messageFormats, msg, serverMessages, spanishTextOf } from './messages.ts';
import { formatMoney } from './money.ts';
import { formatDay, formatPeriod } from './periods.ts';

describe('server messages (key, parameters, Spanish text)', () => {
  it('fills placeholders the Spanish way, each format as money.ts and periods.ts write it', () => {
    expect(
      interpolate('{{m, money}} | {{d, date}} | {{p, period}} | {{n, number}} | {{x}} | {{t, datetime}} | {{missing}}', {
        m: '-123456789',
        d: '2026-11-21',
        p: '2026-10',
        n: 1234567,
        x: 'Mixco',
        t: '2026-11-28T16:05:00Z',
      }),
    ).toBe(
      `${formatMoney(-123456789n)} | ${formatDay('2026-11-21')} | ${formatPeriod('2026-10')} | 1,234,567 | Mixco | 28/11/2026 10:05 | {{missing}}`,
    );
  });

  it('a value that is not of its format is shown as given, never as NaN or an invented date', () => {
    expect(
      interpolate('{{m, money}} {{d, date}} {{p, period}} {{t, datetime}}', { m: '12.5', d: 'ayer', p: '2026', t: 'x' }),
    ).toBe('12.5 ayer 2026 x');
  });

  it('msg carries key, parameters (bigint as text) and the Spanish text; detail spreads it onto a path', () => {
    const m = msg('errors.NOT_FOUND');
    expect(m).toEqual({ key: 'errors.NOT_FOUND', text: 'El registro solicitado no existe.' });
    expect({ path: 'id', ...detail(m) }).toEqual({ path: 'id', key: 'errors.NOT_FOUND', message: m.text });
    const e = new AppError('NOT_FOUND', m);
    expect([e.message, e.key, e.params]).toEqual([m.text, 'errors.NOT_FOUND', undefined]);
    expect(new AppError('CONFLICT').key).toBe('errors.CONFLICT');
  });

  it('every text names only known formats and has balanced placeholders; keys are module.name', () => {
    const problems: string[] = [];
    for (const [key, text] of Object.entries(serverMessages)) {
      if (!/^[a-z]+\.[A-Za-z0-9_]+$/.test(key)) problems.push(`${key}: clave mal formada`);
      if (text.trim() === '') problems.push(`${key}: texto vacío`);
      if ((text.match(/\{\{/g) ?? []).length !== (text.match(/\}\}/g) ?? []).length) problems.push(`${key}: llaves`);
      for (const [, , format] of text.matchAll(/\{\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}\}/g))
        if (format && !(messageFormats as readonly string[]).includes(format)) problems.push(`${key}: formato ${format}`);
    }
    expect(problems).toEqual([]);
  });

  it('a fixed text finds its key (how a schema message reaches the web with one)', () => {
    for (const [key, text] of Object.entries(serverMessages)) {
      if (text.includes('{{')) continue;
      expect(spanishTextOf(keyOfText(text) ?? '')).toBe(text);
      expect(keyOfText(text)?.split('.').length, key).toBe(2);
    }
    expect(keyOfText('un texto que no es del catálogo')).toBeUndefined();
  });
});
