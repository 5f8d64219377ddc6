import { type ErrorEntry, type ErrorKey, errorCatalogue, type FieldError } from '@atrium/contracts';

/**
 * An error the API answers with on purpose: a catalogue entry, optionally a more specific message
 * (already in the caller's language or language-neutral) and data such as the fields at fault.
 */
export class AppError extends Error {
  readonly entry: ErrorEntry;
  readonly data: Record<string, unknown> | null;
  readonly customMessage: boolean;
  /** Values for `{name}` placeholders in the catalogue message. */
  readonly params: Record<string, string | number> | undefined;
  /** A key of `conflictReasons`: the message then says why, in the caller's language. */
  readonly reason: string | undefined;

  constructor(
    key: ErrorKey,
    options: {
      message?: string;
      data?: Record<string, unknown>;
      fields?: FieldError[];
      params?: Record<string, string | number>;
      reason?: string;
    } = {},
  ) {
    super(options.message ?? errorCatalogue[key].en);
    this.name = 'AppError';
    this.entry = errorCatalogue[key];
    this.customMessage = options.message !== undefined;
    this.params = options.params;
    this.reason = options.reason;
    this.data = options.fields ? { ...options.data, fields: options.fields } : (options.data ?? null);
  }
}

export const notFound = () => new AppError('notFound');
export const forbidden = () => new AppError('forbidden');

type IssueLike = {
  code: string;
  minimum?: unknown;
  maximum?: unknown;
  inclusive?: boolean;
  origin?: string;
  expected?: unknown;
  input?: unknown;
};

const numeric = new Set(['number', 'int', 'bigint']);

/** What a value of the wrong type should have been, by the type the schema expected. */
const wrongType: Record<string, string> = {
  string: 'value.notText',
  number: 'value.notNumber',
  int: 'value.notInteger',
  bigint: 'value.notNumber',
  boolean: 'value.notBoolean',
  array: 'value.notList',
  tuple: 'value.notList',
  object: 'value.notObject',
  record: 'value.notObject',
};

/**
 * A schema issue as a key of the contracts' `validationMessages` with its parameters, so it reads in
 * the caller's language (`fieldMessage`) instead of the validator's English. `input` (the value the
 * issue is about, when known) tells a missing value from a wrong one.
 */
export function issueMessage(issue: IssueLike, input: unknown = issue.input): { message: string; params?: Record<string, number> } {
  const missing = input === undefined || input === null || input === '';
  // a number's range, also when it came as text (a path id, a query value): "must be at least 1", not a length
  if ((issue.code === 'too_small' || issue.code === 'too_big') && numeric.has(String(issue.origin)) && !missing) {
    const small = issue.code === 'too_small';
    const bound = Number(small ? issue.minimum : issue.maximum);
    const key = small
      ? issue.inclusive === false
        ? 'value.moreThan'
        : 'value.atLeast'
      : issue.inclusive === false
        ? 'value.lessThan'
        : 'value.atMost';
    return { message: key, params: { [small ? 'min' : 'max']: bound } };
  }
  const text = issue.origin === 'string' || typeof input === 'string';
  if (issue.code === 'too_small' && text) {
    return missing || Number(issue.minimum) <= 1
      ? { message: 'value.required' }
      : { message: 'value.tooShort', params: { min: Number(issue.minimum) } };
  }
  if (issue.code === 'too_big' && text) return { message: 'value.tooLong', params: { max: Number(issue.maximum) } };
  if (issue.code === 'invalid_type' && missing) return { message: 'value.required' };
  if (issue.code === 'invalid_type') return { message: wrongType[String(issue.expected)] ?? 'value.invalid' };
  return { message: 'value.invalid' };
}
