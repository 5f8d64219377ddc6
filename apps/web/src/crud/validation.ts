import type { TFunction } from 'i18next';
import { ApiError } from '../api';
import type { ZodIssueLike } from './resource-api';

/** A field name → message map, ready for Arco's `form.setFields`. */
export type FieldErrors = Record<string, string>;

/** The value at `path` inside a form value (a row of a list, a field of that row). */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Turns the contract's zod issues into messages in the current language, naming the field by its label. */
export function issuesToErrors(
  issues: ZodIssueLike[],
  label: (field: string) => string,
  t: TFunction,
  values: Record<string, unknown> = {},
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (!field || errors[field]) continue;
    // inside a list of rows (a product's SKUs, an order's lines) the message says which row and column:
    // "SKUs 2 · price", not "SKUs is invalid"
    const inner = issue.path.slice(1).map((part) => (typeof part === 'number' ? String(part + 1) : label(String(part))));
    const name = inner.length ? `${label(field)} ${inner.join(' · ')}` : label(field);
    // zod does not echo the input back: the form's own value tells "missing" from "wrong"
    const value = field in values ? valueAt(values[field], issue.path.slice(1)) : issue.input;
    const missing = value === undefined || value === null || value === '';
    const text = issue.origin === 'string' || typeof value === 'string';
    if (issue.code === 'too_big') {
      errors[field] = t(text ? 'validation.tooLong' : 'validation.tooBig', { field: name, max: issue.maximum });
    } else if (issue.code === 'too_small' && issue.origin === 'array') {
      errors[field] = t('validation.tooFewItems', { field: name, min: issue.minimum });
    } else if (issue.code === 'too_small') {
      errors[field] = missing
        ? t('validation.required', { field: name })
        : t(text ? 'validation.tooShort' : 'validation.tooSmall', { field: name, min: issue.minimum });
    } else if (issue.code === 'invalid_type' && missing) {
      errors[field] = t('validation.required', { field: name });
    } else if (issue.code === 'invalid_type' && (issue.expected === 'int' || issue.expected === 'number')) {
      // 1.5 where a count is asked for: say what is wanted, as the server does ('must be a whole number')
      errors[field] = t(issue.expected === 'int' ? 'validation.notInteger' : 'validation.notNumber', { field: name });
    } else if (
      issue.code === 'invalid_format' ||
      issue.code === 'invalid_string' ||
      issue.code === 'custom' ||
      issue.code === 'invalid_union'
    ) {
      // a contract rule with a message key (`chars.parameter`) says what it wants when a bundle has `rule.<key>`
      const rule = issue.message ? t(`rule.${issue.message}`, { defaultValue: '' }) : '';
      errors[field] = rule ? `${name}: ${rule}` : t('validation.format', { field: name });
    } else {
      errors[field] = t('validation.invalid', { field: name });
    }
  }
  return errors;
}

/**
 * A 400/409 answer naming fields of the form, in the same shape; null when it names none of them
 * (then the caller shows the envelope's message, which says why).
 */
export function serverErrors(error: unknown, label: (field: string) => string, t: TFunction, formFields?: string[]): FieldErrors | null {
  if (!(error instanceof ApiError)) return null;
  const all = (error.data as { fields?: { field: string; rule: string; message: string }[] } | undefined)?.fields;
  const fields = formFields ? all?.filter((f) => formFields.includes(f.field)) : all;
  if (!fields?.length) return null;
  const errors: FieldErrors = {};
  for (const f of fields) {
    const name = label(f.field);
    // a sentence that names its field already ('当前密码不正确') stands alone, not after the label again
    const says = f.message.toLowerCase().includes(name.toLowerCase());
    errors[f.field] =
      f.rule === 'unique'
        ? t('validation.unique', { field: name })
        : says
          ? f.message.charAt(0).toUpperCase() + f.message.slice(1)
          : `${name}: ${f.message}`;
  }
  return errors;
}
