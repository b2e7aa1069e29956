import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.ts';
import { showApiError } from './form-errors.ts';
import { notifyError } from './notify.ts';

vi.mock('./notify.ts', () => ({ notifyError: vi.fn() }));

const formSpy = () => {
  const errors: Record<string, string> = {};
  return {
    errors,
    setFieldError: (path: string, message: string) => {
      errors[path] = message;
    },
  };
};

describe('showApiError', () => {
  it('puts field details on the form and notifies only what no field shows', () => {
    vi.mocked(notifyError).mockClear();
    const form = formSpy();
    const err = new ApiError(400, 'VALIDATION', 'Datos inválidos', [{ path: 'name', message: 'Requerido' }]);
    showApiError(err, form, ['name']);
    expect(form.errors).toEqual({ name: 'Requerido' });
    expect(notifyError).not.toHaveBeenCalled();

    showApiError(new ApiError(400, 'VALIDATION', 'Datos inválidos', [{ path: 'other', message: 'Malo' }]), form, ['name']);
    expect(notifyError).toHaveBeenCalledTimes(1);
  });

  it('notifies a non-validation refusal in non-validation mode, and always in always mode', () => {
    vi.mocked(notifyError).mockClear();
    const dup = new ApiError(409, 'DUPLICATE', 'Ya existe', [{ path: 'code', message: 'Código repetido' }]);
    const form = formSpy();
    showApiError(dup, form, ['code'], { notify: 'non-validation' });
    expect(form.errors).toEqual({ code: 'Código repetido' });
    expect(notifyError).toHaveBeenCalledTimes(1);
    const valid = new ApiError(400, 'VALIDATION', 'Datos inválidos', [{ path: 'code', message: 'Requerido' }]);
    showApiError(valid, form, ['code'], { notify: 'non-validation' });
    expect(notifyError).toHaveBeenCalledTimes(1);
    showApiError(valid, form, ['code'], { notify: 'always' });
    expect(notifyError).toHaveBeenCalledTimes(2);
  });

  it('notifies errors without details or that are not API errors', () => {
    vi.mocked(notifyError).mockClear();
    showApiError(new Error('boom'), formSpy(), ['name']);
    showApiError(new ApiError(500, 'INTERNAL', 'Error'));
    expect(notifyError).toHaveBeenCalledTimes(2);
  });
});
