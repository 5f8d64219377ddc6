import type { FieldMeta } from '@atrium/contracts/entity';
import { codeLabel, codeOptions } from '@atrium/contracts/labels';
import type { TFunction } from 'i18next';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { formatDateTime } from '../locale/datetime';
import { formatMoney } from '../locale/money';
import type { ColumnDef, FieldDef } from './types';
import { DateInput, MoneyInput, SourceSelect, TagsInput } from './widgets';

/** The list cell of a field, from its widget. */
export function cellOf(meta: FieldMeta, value: unknown, t: TFunction): string {
  if (value === null || value === undefined || value === '') return meta.empty ? t(meta.empty) : '—';
  // codes of the label registry, where the manifest gives no options of its own
  if (meta.codes && !meta.options) return codeLabel(meta.codes, String(value), i18next.language);
  switch (meta.widget) {
    case 'money':
      return formatMoney(value as number);
    case 'datetime':
      return formatDateTime(value as string);
    case 'switch':
      return t(value ? 'crud.yes' : 'crud.no');
    case 'tags':
      return (value as string[]).join(', ');
    case 'select':
    case 'radio': {
      const option = meta.options?.find((o) => o.value === value);
      return option ? t(option.label) : String(value);
    }
    default:
      return String(value);
  }
}

/**
 * The generic page's columns: every field with `column` not false (status is the machinery's own switch);
 * `cells` gives the fields whose cell says more than their value (a tag, a name looked up) their own.
 */
export function columnsOf<Item>(
  fields: readonly FieldMeta[],
  t: TFunction,
  hasStatus: boolean,
  cells: Partial<Record<keyof Item, (item: Item) => ReactNode>> = {},
): ColumnDef<Item>[] {
  return fields
    .filter((f) => f.column !== false && !(hasStatus && f.field === 'status'))
    .map((f) => ({
      key: f.field,
      title: f.label,
      hidden: typeof f.column === 'object' && f.column.hidden,
      width: typeof f.column === 'object' ? f.column.width : undefined,
      render: cells[f.field as keyof Item] ?? ((item: Item) => cellOf(f, (item as Record<string, unknown>)[f.field], t)),
    }));
}

/** The input of a field in the drawer or the search form. */
export function fieldDefOf(f: FieldMeta, search = false): FieldDef {
  const base = {
    field: f.field,
    label: f.label,
    wide: f.wide,
    ...(f.form === 'create' && !search ? { createOnly: true } : {}),
    // left empty in the drawer it means something: the placeholder says what
    ...(f.empty && !search ? { placeholder: f.empty } : {}),
  };
  const custom = (render: FieldDef['render']): FieldDef => ({ ...base, type: 'custom', render });
  if (f.source)
    return custom(({ value, onChange, placeholder }) => (
      <SourceSelect source={f.source as string} value={value} onChange={onChange} placeholder={placeholder} />
    ));
  switch (f.widget) {
    case 'money':
      return custom(({ value, onChange, placeholder }) => <MoneyInput value={value} onChange={onChange} placeholder={placeholder} />);
    case 'tags':
      return custom(({ value, onChange, placeholder }) => <TagsInput value={value} onChange={onChange} placeholder={placeholder} />);
    case 'date':
      return custom(({ value, onChange }) => <DateInput value={value} onChange={onChange} />);
    case 'datetime':
      return custom(({ value, onChange }) => <DateInput time value={value} onChange={onChange} />);
    case 'select':
    case 'radio':
      return {
        ...base,
        type: f.widget,
        options: f.options?.map((o) => ({ ...o })) ?? (f.codes ? codeOptions(f.codes, i18next.language) : undefined),
      };
    case 'number':
      return { ...base, type: search ? 'text' : 'number' };
    case 'switch':
      return { ...base, type: 'switch' };
    case 'textarea':
      return { ...base, type: 'textarea' };
    default:
      return { ...base, match: f.search === 'prefix' ? 'prefix' : undefined };
  }
}

export const searchOf = (fields: readonly FieldMeta[]) => fields.filter((f) => f.search).map((f) => fieldDefOf(f, true));
export const formOf = (fields: readonly FieldMeta[]) => fields.filter((f) => f.form !== false).map((f) => fieldDefOf(f));
