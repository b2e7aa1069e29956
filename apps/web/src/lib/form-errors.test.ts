import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.ts';
import { showApiError } from './form-errors.ts';
import { notifyError, notifyUnplacedError } from './notify.ts';

vi.mock('./notify.ts', () => ({ notifyError: vi.fn(), notifyUnplacedError: vi.fn() }));

const formSpy = () => {
  const errors: Record<string, string> = {};
  return {
    errors,
    setFieldError: (path: string, message: string) => {
      errors[path] = message;
    },
  };
};

/** Toasts shown, whole errors or only what no field shows. */
const toasts = () => vi.mocked(notifyError).mock.calls.length + vi.mocked(notifyUnplacedError).mock.calls.length;
const clear = () => {
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifyUnplacedError).mockClear();
};

describe('showApiError', () => {
  it('puts field details on the form and notifies only what no field shows', () => {
    clear();
    const form = formSpy();
    const err = new ApiError(400, 'VALIDATION', 'Datos inválidos', [{ path: 'name', message: 'Requerido' }]);
    showApiError(err, form, ['name']);
    expect(form.errors).toEqual({ name: 'Requerido' });
    expect(toasts()).toBe(0);

    const mixed = new ApiError(400, 'VALIDATION', 'Datos inválidos', [
      { path: 'name', message: 'Requerido' },
      { path: 'other', message: 'Malo' },
    ]);
    showApiError(mixed, form, ['name']);
    expect(toasts()).toBe(1);
    // The toast lists only what no field shows.
    expect(notifyUnplacedError).toHaveBeenCalledWith(mixed, [{ path: 'other', message: 'Malo' }]);
  });

  it('notifies a non-validation refusal in non-validation mode, and always in always mode', () => {
    clear();
    const dup = new ApiError(409, 'DUPLICATE', 'Ya existe', [{ path: 'code', message: 'Código repetido' }]);
    const form = formSpy();
    showApiError(dup, form, ['code'], { notify: 'non-validation' });
    expect(form.errors).toEqual({ code: 'Código repetido' });
    expect(toasts()).toBe(1);
    expect(notifyUnplacedError).toHaveBeenCalledWith(dup, []);
    const valid = new ApiError(400, 'VALIDATION', 'Datos inválidos', [{ path: 'code', message: 'Requerido' }]);
    showApiError(valid, form, ['code'], { notify: 'non-validation' });
    expect(toasts()).toBe(1);
    showApiError(valid, form, ['code'], { notify: 'always' });
    expect(toasts()).toBe(2);
  });

  it('notifies errors without details or that are not API errors', () => {
    clear();
    showApiError(new Error('boom'), formSpy(), ['name']);
    showApiError(new ApiError(500, 'INTERNAL', 'Error'));
    expect(notifyError).toHaveBeenCalledTimes(2);
  });
});
