import { textWith } from '@aporta/domain/messages';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, apiErrorOf } from './api.ts';
import { zod4Resolver } from './form-validate.ts';
import { errorToast } from './notify.ts';
import { applyZodLanguage, messageText, registerMessageFormats } from './server-messages.ts';

const server = {
  errors: { VALIDATION: 'The data sent is not valid.' },
  settings: { settingProblem: '{{setting}}: {{problem}}', maximumIs: 'The maximum is {{max, number}}.' },
  platform: { sample: 'Minimum {{min, money}} from {{from, date}} for {{period, period}} ({{n, number}} rows)' },
};

beforeAll(async () => {
  await i18n.init({
    lng: 'en',
    fallbackLng: 'es',
    resources: { en: { translation: { server } }, es: { translation: {} } },
    interpolation: { escapeValue: false },
  });
  registerMessageFormats();
});

describe('server messages in the screen language', () => {
  it('a keyed message is worded by its key, its parameters in the language’s formats', () => {
    expect(
      messageText({
        message: 'Mínimo Q 7,542.40 …',
        key: 'platform.sample',
        params: { min: '754240', from: '2026-11-21', period: '2026-10', n: 1234 },
      }),
    ).toBe('Minimum Q\u00a07,542.40 from 11/21/2026 for 10/2026 (1,234 rows)');
  });

  it('a fixed Spanish text with no key finds its key; an unknown key or text stays as sent', () => {
    expect(messageText({ message: 'Los datos enviados no son válidos.' })).toBe('The data sent is not valid.');
    expect(messageText({ message: 'Texto sin clave', key: 'platform.notInThisBuild' })).toBe('Texto sin clave');
    expect(messageText({ message: 'Texto libre' })).toBe('Texto libre');
  });

  it('a parameter that is itself a message is said in the language too', () => {
    // The schema made this text once (settings.ts `whole`), which is how its key is known.
    expect(textWith('settings.maximumIs', { max: 28 })).toBe('El máximo es 28.');
    expect(
      messageText({
        message: 'Día de vencimiento: El máximo es 28.',
        key: 'settings.settingProblem',
        params: { setting: 'Día de vencimiento', problem: 'El máximo es 28.' },
      }),
    ).toBe('Día de vencimiento: The maximum is 28.');
  });

  it('zod’s own issues sent as zod.<code> are worded by zod’s locale of the language', () => {
    const text = messageText({
      message: 'Demasiado pequeño…',
      key: 'zod.too_small',
      params: { code: 'too_small', origin: 'string', minimum: 3, inclusive: 1 },
    });
    expect(text).toMatch(/^Too small/);
    expect(text).toContain('3');
  });

  it('a refusal’s toast says the message and its details in the language', () => {
    const err = apiErrorOf(400, {
      error: {
        code: 'VALIDATION',
        message: 'Los datos enviados no son válidos.',
        key: 'errors.VALIDATION',
        details: [
          {
            path: 'x',
            message: 'Mínimo…',
            key: 'platform.sample',
            params: { min: 100, from: '2026-01-02', period: '2026-01', n: 2 },
          },
        ],
      },
    });
    expect(err).toBeInstanceOf(ApiError);
    expect(errorToast(err)).toEqual({
      title: 'The data sent is not valid.',
      message: 'Minimum Q\u00a01.00 from 01/02/2026 for 01/2026 (2 rows)',
    });
  });

  it('a form validated by a domain schema shows the schema’s message in the language (lib/form-validate)', () => {
    const schema = z.object({ name: z.string().min(1, { error: 'Los datos enviados no son válidos.' }) });
    expect(zod4Resolver(schema)({ name: '' })).toEqual({ name: 'The data sent is not valid.' });
    expect(zod4Resolver(schema)({ name: 'Ana' })).toEqual({});
  });

  it('forms checked in the browser get zod’s own messages in the language', () => {
    applyZodLanguage('en');
    expect(z.string().min(2).safeParse('a').error?.issues[0].message).toMatch(/^Too small/);
    applyZodLanguage('es');
    expect(z.string().min(2).safeParse('a').error?.issues[0].message).toMatch(/^Demasiado pequeño/);
  });
});
