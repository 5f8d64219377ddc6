import { fieldMessage, type Language } from '@atrium/contracts';
import { AppError } from '../errors';

type Params = Record<string, string | number>;

/** 409 naming the fields whose values are already taken, each as its own entry. */
export function conflict(...fields: [string, ...string[]]): AppError {
  return new AppError('conflict', { fields: fields.map((field) => ({ field, rule: 'unique', message: 'value.taken' })) });
}

/**
 * 400 naming one field, for rules a schema cannot see (a parent that would make a cycle, an unknown id).
 * `message` is a key of the contracts' `validationMessages`: the answer says it in the caller's language.
 */
export function invalidField(field: string, rule: string, message: string, params?: Params): AppError {
  return new AppError('validation', { fields: [{ field, rule, message, ...(params ? { params } : {}) }] });
}

/**
 * 409 for a rule that keeps the row as it is (in use, last super admin, yourself). `reason` names the
 * catalogue's `conflictReasons` entry, so the message (and the field's) says why in the caller's
 * language, with its `params` (`count`…).
 */
export function refused(field: string, rule: string, reason: string, params?: Params): AppError {
  return new AppError('conflict', {
    fields: [{ field, rule, message: reason, ...(params ? { params } : {}) }],
    reason,
    params,
    data: params,
  });
}

/**
 * 409 for the rules that each keep the row (a project's processes, its tasks): one is `refused`; several
 * say all their reasons at once, in the caller's language, each as its own entry.
 */
export function refusedAll(field: string, rules: readonly { rule: string; reason: string; count: number }[], lang: Language): AppError {
  const [first, ...more] = rules;
  if (!first) throw new Error('refusedAll: no rule');
  if (!more.length) return refused(field, first.rule, first.reason, { count: first.count });
  return new AppError('conflict', {
    message: rules.map((r) => fieldMessage(r.reason, lang, { count: r.count })).join('; '),
    fields: rules.map((r) => ({ field, rule: r.rule, message: r.reason, params: { count: r.count } })),
  });
}

type PgLikeError = { code?: string; constraint?: string; constraint_name?: string; cause?: PgLikeError };

/**
 * A unique violation the pre-checks raced past, turned into 409 naming the field
 * (`constraints` maps a constraint name to a field). Anything else is rethrown.
 */
export function rethrowUnique(error: unknown, constraints: Record<string, string>): never {
  let e = error as PgLikeError | undefined;
  while (e) {
    if (e.code === '23505') {
      const name = e.constraint ?? e.constraint_name ?? '';
      throw conflict(constraints[name] ?? 'unique');
    }
    e = e.cause;
  }
  throw error;
}
