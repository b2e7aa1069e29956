import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { errorToast, notifyError, notifyUnplacedError } from '../../lib/notify.ts';

vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));
vi.mock('../../lib/notify.ts', async (actual) => ({
  ...(await actual<typeof import('../../lib/notify.ts')>()),
  notifyError: vi.fn(),
  notifyUnplacedError: vi.fn(),
}));
vi.mock('i18next', () => ({
  default: {
    t: (key: string) => key,
    exists: () => false,
    language: 'es',
    isInitialized: true,
    on: () => undefined,
    services: {},
  },
}));

/** A wrong passphrase as the server answers it (signing/sign.ts): the field's detail is the message itself. */
const wrongPassphrase = () => {
  const message = 'Frase de paso incorrecta (intento 1 de 3).';
  return new ApiError(400, 'VALIDATION', message, [{ path: 'passphrase', message }]);
};

describe('a wrong passphrase in "Revisar y firmar"', () => {
  it('is said once in a notification', () => {
    expect(errorToast(wrongPassphrase())).toEqual({ message: 'Frase de paso incorrecta (intento 1 de 3).' });
  });

  it('is said once under the passphrase field, with no notification besides', () => {
    const errors: string[] = [];
    showApiError(wrongPassphrase(), { setFieldError: (_path, text) => errors.push(text) }, ['passphrase']);
    expect(errors).toEqual(['Frase de paso incorrecta (intento 1 de 3).']);
    expect(notifyError).not.toHaveBeenCalled();
    expect(notifyUnplacedError).not.toHaveBeenCalled();
    // Any other refusal of signing (no field of its own) is a notification.
    showApiError(new ApiError(409, 'CONFLICT', 'Aún no es su turno.'), { setFieldError: () => {} }, ['passphrase']);
    expect(notifyError).toHaveBeenCalledTimes(1);
  });
});
