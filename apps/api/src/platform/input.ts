import { AppError, CONTROL_CHARACTERS, type ErrorDetail } from '@aporta/domain';
import type { FastifyInstance } from 'fastify';

const MAX_DETAILS = 20;

/**
 * Walks a parsed query, params object or JSON body and names every text (value or key) holding a
 * control character. Paths follow the validation errors: `consulta.q`, `ruta.id`, `nombre.0.x`.
 */
export function controlCharacterProblems(value: unknown, prefix: string, out: ErrorDetail[] = []): ErrorDetail[] {
  if (out.length >= MAX_DETAILS) return out;
  if (typeof value === 'string') {
    if (CONTROL_CHARACTERS.test(value)) {
      out.push({ path: prefix || '(raíz)', message: 'Contiene caracteres de control no permitidos.' });
    }
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) controlCharacterProblems(v, join(prefix, String(i)), out);
  } else if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (CONTROL_CHARACTERS.test(k)) {
        out.push({
          path: join(prefix, k.replace(CONTROL_CHARACTERS, '?')),
          message: 'El nombre del campo contiene caracteres de control.',
        });
      } else {
        controlCharacterProblems(v, join(prefix, k), out);
      }
    }
  }
  return out;
}

const join = (a: string, b: string) => (a ? `${a}.${b}` : b);

/**
 * Refuses a NUL or other C0 control character (tab, LF and CR excepted) anywhere in the query, the
 * path parameters or a JSON body, with a 400 naming the field. One hook for every route, present and
 * future: Postgres refuses NUL in text with an error (a 500), and control characters in names or
 * codes only ever come from broken files or an attack. Runs before validation so no schema has to
 * repeat the rule.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const details: ErrorDetail[] = [];
    controlCharacterProblems(request.params, 'ruta', details);
    controlCharacterProblems(request.query, 'consulta', details);
    controlCharacterProblems(request.body, '', details);
    done(details.length ? new AppError('VALIDATION', undefined, details.slice(0, MAX_DETAILS)) : undefined);
  });
}
