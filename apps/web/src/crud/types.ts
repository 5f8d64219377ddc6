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
  /** a custom input: the form's value, its setter and the placeholder the other inputs show (the label) */
  render?: (props: { value: unknown; onChange: (value: unknown) => void; placeholder?: string }) => ReactNode;
  /** full width in the drawer */
  wide?: boolean;
  /** a tree of the same records (parent department): the edited record and its descendants are disabled */
  notUnderSelf?: boolean;
  /** placeholder (i18n key) instead of the label, e.g. "留空则自动生成" */
  placeholder?: string;
  /** a search field the server matches from the start (said in the placeholder) */
  match?: 'prefix';
};

/** One table column; `title` is an i18n key; `sortable` only for columns on the contract's allow-list. */
export type ColumnDef<Item> = {
  key: string;
  title: string;
  render?: (item: Item) => ReactNode;
  width?: number;
  /** free text that can be really long (remark, address, content): cut at a maximum width, whole in a tooltip */
  long?: boolean;
  /** shown on phones; without any column marking this, a phone shows the first two */
  phone?: boolean;
  /** hidden until the user shows it from the column settings */
  hidden?: boolean;
};

export type Row = { id: number; status?: string; children?: Row[] };
