import { AppError, CONTROL_CHARACTERS, detail, type ErrorDetail, msg } from '@aporta/domain';
import type { FastifyInstance } from 'fastify';

const MAX_DETAILS = 20;

/**
 * Deepest nesting of arrays and objects a query or body may have. No form of the application nests
 * more than a handful of levels; a body nested thousands of levels overflowed the stack of the old
 * recursive walk (a 500 on every JSON route, the anonymous login included) and would overflow any
 * recursive walk after it (zod, the audit's JSON, Postgres' jsonb).
 */
export const MAX_INPUT_DEPTH = 400;
const DEPTH_MESSAGE = msg('platform.inputTooDeep', { max: MAX_INPUT_DEPTH });

/**
 * Walks a parsed query, params object or JSON body and names every text (value or key) holding a
 * control character, and the first place nested deeper than MAX_INPUT_DEPTH. Paths follow the
 * validation errors: `consulta.q`, `ruta.id`, `nombre.0.x`. Iterative (an explicit stack), so no input
 * can overflow the call stack.
 */
export function controlCharacterProblems(value: unknown, prefix: string, out: ErrorDetail[] = []): ErrorDetail[] {
  // A pending item is a value to look at, or a key already found bad (reported in the fields' order).
  type Pending = { value: unknown; path: string; depth: number; badKey?: true };
  const stack: Pending[] = [{ value, path: prefix, depth: 0 }];
  while (stack.length && out.length < MAX_DETAILS) {
    const { value: v, path, depth, badKey } = stack.pop() as Pending;
    if (badKey) {
      out.push({ path, ...detail(msg('platform.fieldNameControlCharacters')) });
    } else if (typeof v === 'string') {
      if (CONTROL_CHARACTERS.test(v)) out.push({ path: path || '(raíz)', ...detail(msg('platform.controlCharacters')) });
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      if (depth >= MAX_INPUT_DEPTH) {
        // One message for the nesting is enough: the rest of the input is not walked.
        out.push({
          path: path.length > 200 ? `${path.slice(0, 200)}…` : path || '(raíz)',
          ...detail(DEPTH_MESSAGE),
        });
        break;
      }
      const entries: [string, unknown][] = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
      // Pushed last to first, so they are taken first to last.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i];
        if (!Array.isArray(v) && CONTROL_CHARACTERS.test(k)) {
          stack.push({ value: undefined, path: join(path, k.replace(CONTROL_CHARACTERS, '?')), depth, badKey: true });
        } else {
          stack.push({ value: x, path: join(path, k), depth: depth + 1 });
        }
      }
    }
  }
  return out.slice(0, MAX_DETAILS);
}

const join = (a: string, b: string) => (a ? `${a}.${b}` : b);

/**
 * Refuses a NUL or other C0 control character (tab, LF and CR excepted) anywhere in the query, the
 * path parameters or a JSON body, with a 400 naming the field, and input nested deeper than
 * MAX_INPUT_DEPTH. One hook for every route, present and
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
    // Nesting too deep is said in the message itself: no field of a form is where it happened.
    const message = details.some((d) => d.key === DEPTH_MESSAGE.key) ? DEPTH_MESSAGE : undefined;
    done(details.length ? new AppError('VALIDATION', message, details.slice(0, MAX_DETAILS)) : undefined);
  });
}
