import type { ListParams, WebResource, ZodIssueLike } from './resource-api';
import type { FieldDef } from './types';

/** Date ranges become `<field>From`/`<field>To`; empty values are dropped. */
export function toParams(values: Record<string, unknown>, fields: FieldDef[]): ListParams {
  const params: ListParams = {};
  for (const def of fields) {
    const value = values[def.field];
    if (value === undefined || value === null || value === '') continue;
    if (def.type === 'dateRange' && Array.isArray(value)) {
      params[`${def.field}From`] = `${value[0]}T00:00:00`;
      params[`${def.field}To`] = `${value[1]}T23:59:59`;
    } else {
      params[def.field] = value as string | number;
    }
  }
  return params;
}

/**
 * The issues the list's filter `schema` finds in `params`, checked as the server sees them (every value a
 * query-string text), each moved to the form field it came from (a date range's From/To are its field's).
 * Issues of keys no field of the form sets are left out: the user could not correct them.
 */
export function searchIssues(params: ListParams, fields: FieldDef[], schema: WebResource['filters']): ZodIssueLike[] {
  const result = schema?.safeParse(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])));
  const fieldOf = (key: string) =>
    fields.find((d) => d.field === key || (d.type === 'dateRange' && (key === `${d.field}From` || key === `${d.field}To`)))?.field;
  return (result?.success === false ? result.error.issues : []).flatMap((issue) => {
    const field = fieldOf(String(issue.path[0] ?? ''));
    return field ? [{ ...issue, path: [field, ...issue.path.slice(1)] }] : [];
  });
}
