import { DatePicker, Input, InputNumber, Select } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { http } from '../api';

/** Fen (integer, as the API has it) typed as yuan. */
export function MoneyInput({ value, onChange, placeholder }: { value?: unknown; onChange: (v: unknown) => void; placeholder?: string }) {
  return (
    <InputNumber
      value={typeof value === 'number' ? value / 100 : undefined}
      onChange={(v) => onChange(v === undefined || v === null ? undefined : Math.round(Number(v) * 100))}
      precision={2}
      min={0}
      prefix="¥"
      placeholder={placeholder}
      style={{ width: '100%' }}
    />
  );
}

/** A list of short strings typed one by one (spec values, tags). */
export function TagsInput({ value, onChange, placeholder }: { value?: unknown; onChange: (v: unknown) => void; placeholder?: string }) {
  return (
    <Select
      mode="multiple"
      allowCreate
      value={Array.isArray(value) ? (value as string[]) : []}
      onChange={(v) => onChange(v)}
      placeholder={placeholder}
      notFoundContent={null}
    />
  );
}

export function DateInput({ value, onChange, time }: { value?: unknown; onChange: (v: unknown) => void; time?: boolean }) {
  const v = typeof value === 'string' && value ? value : undefined;
  return time ? (
    <DatePicker
      showTime
      value={v ? new Date(v) : undefined}
      onChange={(s) => onChange(s ? new Date(s).toISOString() : undefined)}
      style={{ width: '100%' }}
    />
  ) : (
    <DatePicker value={v} onChange={(s) => onChange(s || undefined)} style={{ width: '100%' }} />
  );
}

type SourceRow = { id: number; name: string; code?: string };
type Option = { label: string; value: number };

/**
 * Options from a list API (`/erp/warehouse`): its rows' id and name (and code, `withCode`). Without
 * `keyword` the list's first 200 rows; with it, the rows each `searchBy` filter finds on the server
 * (a tenant's 100,000 members are not all in the first page).
 */
export function useSourceOptions(source: string | undefined, { withCode = false, keyword = '', searchBy = [] as string[] } = {}): Option[] {
  const searching = keyword.trim() !== '' && searchBy.length > 0;
  const query = useQuery({
    enabled: Boolean(source),
    queryKey: ['erp', 'options', source, searching ? searchBy : null, searching ? keyword.trim() : ''],
    queryFn: async () => {
      if (!searching) return (await http.get<{ list: SourceRow[] }>(`/api${source}`, { params: { pageSize: 200 } })).list;
      const found = await Promise.all(
        searchBy.map((field) => http.get<{ list: SourceRow[] }>(`/api${source}`, { params: { [field]: keyword.trim(), pageSize: 50 } })),
      );
      const rows = new Map<number, SourceRow>();
      for (const page of found) for (const row of page.list) rows.set(row.id, row);
      return [...rows.values()];
    },
  });
  return (query.data ?? []).map((r) => ({ label: withCode && r.code ? `${r.name} (${r.code})` : r.name, value: r.id }));
}

export function SourceSelect({
  source,
  value,
  onChange,
  placeholder,
  style,
  withCode,
  searchBy,
}: {
  source: string;
  value?: unknown;
  onChange: (v: unknown) => void;
  placeholder?: string;
  /** a width of its own where the form does not give one (inline forms) */
  style?: React.CSSProperties;
  /** each option says its code too, and typing finds it by either */
  withCode?: boolean;
  /** the list's filters that typing searches on the server (`['name', 'mobile']`); without them typing filters the first 200 */
  searchBy?: string[];
}) {
  const [keyword, setKeyword] = useState('');
  const options = useSourceOptions(source, { withCode, keyword, searchBy });
  // the chosen row keeps its label while a search shows other rows
  const [chosen, setChosen] = useState<Option | null>(null);
  const shown = chosen && !options.some((o) => o.value === chosen.value) && chosen.value === value ? [chosen, ...options] : options;
  return (
    <Select
      style={style}
      value={value as number | undefined}
      onChange={(v) => {
        setChosen(shown.find((o) => o.value === v) ?? null);
        onChange(v ?? null);
      }}
      options={shown}
      placeholder={placeholder}
      allowClear
      showSearch
      {...(searchBy?.length
        ? { filterOption: false, onSearch: (text: string) => setKeyword(text) }
        : {
            filterOption: (input: string, option: React.ReactElement) =>
              String((option.props as { children?: unknown }).children ?? '')
                .toLowerCase()
                .includes(input.toLowerCase()),
          })}
    />
  );
}

export function TextInput({ value, onChange }: { value?: unknown; onChange: (v: unknown) => void }) {
  return <Input value={value as string} onChange={onChange} />;
}
