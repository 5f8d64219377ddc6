import type { FormInstance } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { type FieldErrors, issuesToErrors, serverErrors } from './validation';

type Options = {
  /** a field's label in the current language, for the messages */
  label: (field: string) => string;
  /** messages for the schema's custom rules (a word count, min ≤ default ≤ max), by field */
  rules?: Record<string, string>;
};

/**
 * Validation of a plain (non-resource) form against its contract schema, the same way the resource
 * drawer does it: the schema's issues become messages in the UI language under their fields, a field
 * showing an error is checked again as soon as it changes (so a corrected field loses its message at
 * once), and a server's 400/409 lands under the field it names.
 */
export function useSchemaForm<S extends z.ZodType>(form: FormInstance, schema: S, { label, rules = {} }: Options) {
  const { t } = useTranslation();

  const errorsOf = (result: z.ZodSafeParseResult<z.output<S>>, values: Record<string, unknown>): FieldErrors => {
    if (result.success) return {};
    const errors = issuesToErrors(result.error.issues, label, t, values);
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? '');
      if (issue.code === 'custom' && rules[field]) errors[field] = rules[field];
    }
    return errors;
  };

  const show = (errors: FieldErrors, only?: string[]) => {
    const fields = only ?? Object.keys(errors);
    form.setFields(Object.fromEntries(fields.map((field) => [field, { error: errors[field] ? { message: errors[field] } : undefined }])));
  };

  /** Checks `values` (or the form's own); shows the errors of `fields` (all when omitted). */
  const validate = (fields?: string[], values: Record<string, unknown> = form.getFieldsValue()) => {
    const result = schema.safeParse(values) as z.ZodSafeParseResult<z.output<S>>;
    const errors = errorsOf(result, values);
    const relevant = fields ? Object.fromEntries(Object.entries(errors).filter(([f]) => fields.includes(f))) : errors;
    show(relevant, fields);
    return { ok: Object.keys(relevant).length === 0, data: result.success ? result.data : undefined, errors: relevant };
  };

  /** For Arco's `onValuesChange`: re-checks the changed fields that show an error. */
  const recheck = (changed: Record<string, unknown>) => {
    const flagged = Object.keys(changed).filter((field) => form.getFieldError(field));
    if (flagged.length) validate(flagged);
  };

  /** Shows a server's field errors; false when the answer named none (the caller shows its message). */
  const showServerErrors = (error: unknown) => {
    const errors = serverErrors(error, label, t);
    if (!errors) return false;
    show(errors);
    return true;
  };

  return { validate, recheck, showServerErrors };
}
