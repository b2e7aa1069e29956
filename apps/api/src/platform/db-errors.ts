import { AppError, detail, type ErrorCode, type Message, msg } from '@aporta/domain';
import { busy } from './load.ts';

/**
 * The one mapping of PostgreSQL errors to AppError. A constraint the service's own checks did not
 * catch (two requests racing, a check only the database enforces) is answered as the 4xx it is, with
 * a Spanish message naming the field, never as a 500 carrying the driver's English text.
 *
 * Both drivers raise errors with the server's fields (`code`, `constraint`, `table`, `column`,
 * `detail`): `pg`'s DatabaseError and PGlite's error alike. Drizzle wraps them in a
 * DrizzleQueryError whose `cause` is the driver's error, so the chain of causes is searched.
 */

/** What a module says about one of its constraints: the field it guards and the message to show. */
export interface ConstraintRule {
  /** The field as the form and the API body name it (`email`, `cui`, `code`). */
  path: string;
  message: string;
  /** Defaults by SQLSTATE class: DUPLICATE for unique, VALIDATION for check and not-null. */
  code?: ErrorCode;
}

export interface DatabaseErrorFields {
  code: string;
  constraint?: string;
  table?: string;
  column?: string;
  detail?: string;
}

const constraintRules = new Map<string, ConstraintRule>();

/**
 * Registers the messages of a module's constraints, by constraint (or unique index) name. Called once
 * at import of the module's service; a name registered twice with another rule is a programming error.
 */
export function registerConstraintRules(rules: Record<string, ConstraintRule>): void {
  for (const [name, rule] of Object.entries(rules)) {
    const current = constraintRules.get(name);
    if (current && (current.path !== rule.path || current.message !== rule.message)) {
      throw new Error(`Restricción registrada dos veces con reglas distintas: ${name}`);
    }
    constraintRules.set(name, rule);
  }
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** The PostgreSQL error inside `err` (itself or one of its causes), or null when it is not one. */
export function databaseErrorOf(err: unknown): DatabaseErrorFields | null {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth += 1) {
    const x = e as Partial<DatabaseErrorFields> & { cause?: unknown; severity?: unknown };
    // `severity` tells a server error from Node's own errors, whose codes (ECONNRESET) never match anyway.
    if (typeof x.code === 'string' && SQLSTATE.test(x.code) && (x.severity !== undefined || x.constraint !== undefined)) {
      return { code: x.code, constraint: x.constraint, table: x.table, column: x.column, detail: x.detail };
    }
    e = x.cause;
  }
  return null;
}

/** True when `err` is a unique violation, optionally of the named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const db = databaseErrorOf(err);
  return db?.code === '23505' && (!constraint || db.constraint === constraint);
}

/** snake_case column → the camelCase name the API uses for the field. */
const fieldOf = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The column(s) named by a detail like `Key (code)=(x) already exists.`; null when there is none. */
function keyColumnOf(detail: string | undefined): string | null {
  const m = /^Key \(([^)]+)\)=/.exec(detail ?? '');
  if (!m) return null;
  // An expression index (lower(email)) names its column inside the call.
  const inner = /\(([a-z_0-9]+)\)$/.exec(m[1]);
  return fieldOf((inner ? inner[1] : m[1]).split(',')[0].trim());
}

const withDetail = (code: ErrorCode, message: Message | string, path: string | null, cause: unknown) =>
  new AppError(
    code,
    message,
    path ? [typeof message === 'string' ? { path, message } : { path, ...detail(message) }] : undefined,
    { cause },
  );

export interface DbErrorOptions {
  /** Rules for this call only (they win over the registered ones), e.g. a message that depends on scope. */
  constraints?: Record<string, ConstraintRule>;
  /** What the rows are, for the default messages: `en «Regiones»`. */
  subject?: string;
}

/**
 * The AppError a database error stands for, or null when `err` is not one this mapping knows (a
 * lost connection, a syntax error in our own SQL: those stay 500s, logged).
 */
export function toAppError(err: unknown, opts: DbErrorOptions = {}): AppError | null {
  if (err instanceof AppError) return err;
  // The pool had no connection to give within its wait (pg-pool's own error, no SQLSTATE): saturated.
  if (err instanceof Error && /timeout exceeded when trying to connect/i.test(err.message)) return busy(err);
  const db = databaseErrorOf(err);
  if (!db) return null;
  // A statement cut by its timeout (platform/load.ts), or the server out of connections: try again later.
  if (db.code === '57014' || db.code === '53300') return busy(err);
  const rule = db.constraint ? (opts.constraints?.[db.constraint] ?? constraintRules.get(db.constraint)) : undefined;
  const subject = opts.subject ? ` ${opts.subject}` : '';
  if (rule) {
    const fallback: ErrorCode = db.code === '23505' ? 'DUPLICATE' : db.code === '23503' ? 'CONFLICT' : 'VALIDATION';
    return withDetail(rule.code ?? fallback, rule.message, rule.path, err);
  }
  const column = db.column ? fieldOf(db.column) : keyColumnOf(db.detail);
  switch (db.code) {
    case '23505':
      return withDetail(
        'DUPLICATE',
        column ? msg('platform.dbDuplicateColumn', { subject, column }) : msg('platform.dbDuplicate', { subject }),
        column,
        err,
      );
    case '23503':
      // On insert or update the referenced row is missing (the caller's mistake); on delete the row is in use.
      if (/is still referenced/.test(db.detail ?? '')) {
        return new AppError('CONFLICT', msg('platform.dbInUse', { subject }), undefined, { cause: err });
      }
      return withDetail(
        'VALIDATION',
        column ? msg('platform.dbReferenceMissingColumn', { column }) : msg('platform.dbReferenceMissing'),
        column,
        err,
      );
    case '23P01':
      return new AppError('CONFLICT', msg('platform.dbOverlap', { subject }), undefined, { cause: err });
    case '23514':
      return withDetail('VALIDATION', msg('platform.dbCheck', { subject }), column, err);
    case '23502':
      return withDetail(
        'VALIDATION',
        column ? msg('platform.dbRequiredColumn', { column }) : msg('platform.dbRequired'),
        column,
        err,
      );
    case '22P02':
    case '22007':
    case '22008':
      return new AppError('VALIDATION', msg('platform.dbBadFormat'), undefined, { cause: err });
    case '22003':
      return new AppError('VALIDATION', msg('platform.dbNumberOutOfRange'), undefined, { cause: err });
    case '22001':
      return new AppError('VALIDATION', msg('platform.dbTextTooLong'), undefined, { cause: err });
    default:
      return null;
  }
}

/** Rethrows `err` as its AppError when it is a known database error; otherwise unchanged. For `.catch`. */
export function rethrowDbError(err: unknown, opts?: DbErrorOptions): never {
  throw toAppError(err, opts) ?? err;
}
