import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.ts';
import { errorToast } from './notify.ts';

vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));
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

describe('errorToast', () => {
  it('lists under a generic message the details that say which field or row failed and why', () => {
    const err = new ApiError(400, 'VALIDATION', 'Los datos enviados no son válidos.', [
      { path: 'content', message: 'Contiene caracteres de control no permitidos.' },
      { path: 'rows.3.monto', message: 'Fila 4: el monto no es un número.' },
    ]);
    expect(errorToast(err)).toEqual({
      title: 'Los datos enviados no son válidos.',
      message: 'Contiene caracteres de control no permitidos.\nFila 4: el monto no es un número.',
    });
  });

  it('says a message once: a detail that repeats the message, or another detail, is not listed again', () => {
    const same = new ApiError(400, 'VALIDATION', 'La primera línea debe nombrar las columnas.', [
      { path: 'content', message: 'La primera línea debe nombrar las columnas.' },
    ]);
    expect(errorToast(same)).toEqual({ message: 'La primera línea debe nombrar las columnas.' });
    const twice = new ApiError(400, 'VALIDATION', 'Datos inválidos', [
      { path: 'a', message: 'Requerido' },
      { path: 'b', message: 'Requerido' },
    ]);
    expect(errorToast(twice)).toEqual({ title: 'Datos inválidos', message: 'Requerido' });
  });

  it('lists at most five details, then an ellipsis', () => {
    const details = Array.from({ length: 8 }, (_, i) => ({ path: `rows.${i}`, message: `Fila ${i + 1}: vacía.` }));
    const { message } = errorToast(new ApiError(400, 'VALIDATION', 'Datos inválidos', details));
    expect(message.split('\n')).toEqual([
      'Fila 1: vacía.',
      'Fila 2: vacía.',
      'Fila 3: vacía.',
      'Fila 4: vacía.',
      'Fila 5: vacía.',
      '…',
    ]);
  });

  it('lists only the details it is given (those no form field shows), and says a generic message for what is not an API error', () => {
    const err = new ApiError(400, 'VALIDATION', 'Datos inválidos', [
      { path: 'name', message: 'Requerido' },
      { path: 'other', message: 'Malo' },
    ]);
    expect(errorToast(err, [err.details[1]])).toEqual({ title: 'Datos inválidos', message: 'Malo' });
    expect(errorToast(new Error('boom'))).toEqual({ message: 'common.unexpectedError' });
    expect(errorToast(new ApiError(500, 'INTERNAL', 'Error interno'))).toEqual({ message: 'Error interno' });
  });
});
