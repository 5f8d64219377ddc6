import type { ReactNode } from 'react';

export type Option = { label: string; value: string | number };
export type TreeOption = { key: string; title: string; children?: TreeOption[]; disabled?: boolean };

export type FieldType =
  | 'text'
  | 'textarea'
  | 'password'
  | 'number'
  | 'select'
  | 'multiSelect'
  | 'treeSelect'
  | 'switch'
  | 'radio'
  | 'dateRange'
  | 'custom';

/** One search or form field; `label` is an i18n key. */
export type FieldDef = {
  field: string;
  label: string;
  type?: FieldType;
  options?: Option[];
  treeData?: TreeOption[];
  /** shown only when creating (account number, initial password) */
  createOnly?: boolean;
  /** whether to show it given the form's current values (e.g. custom departments for data scope '2') */
  visible?: (values: Record<string, unknown>) => boolean;
  render?: (props: { value: unknown; onChange: (value: unknown) => void }) => ReactNode;
  /** full width in the drawer */
  wide?: boolean;
  /** a search field the server matches from the start (said in the placeholder) */
  match?: 'prefix';
};

/** One table column; `title` is an i18n key; `sortable` only for columns on the contract's allow-list. */
export type ColumnDef<Item> = {
  key: string;
  title: string;
  render?: (item: Item) => ReactNode;
  width?: number;
  /** hidden until the user shows it from the column settings */
  hidden?: boolean;
};

export type Row = { id: number; status?: string; children?: Row[] };
