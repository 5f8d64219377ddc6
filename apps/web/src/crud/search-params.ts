import dayjs from 'dayjs';
import type { ListParams, WebResource, ZodIssueLike } from './resource-api';
import type { FieldDef } from './types';

/**
 * Date ranges become `<field>From`/`<field>To`: the instants where the first day starts and the last
 * one ends in the user's time zone (the zone the list shows its times in), not wall-clock times the
 * server would read in its own zone. Empty values are dropped.
 */
export function toParams(values: Record<string, unknown>, fields: FieldDef[]): ListParams {
  const params: ListParams = {};
  for (const def of fields) {
    const value = values[def.field];
    if (value === undefined || value === null || value === '') continue;
    if (def.type === 'dateRange' && Array.isArray(value)) {
      params[`${def.field}From`] = dayjs(value[0]).startOf('day').toISOString();
      params[`${def.field}To`] = dayjs(value[1]).endOf('day').toISOString();
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
