import {
  Button,
  Empty,
  Form,
  Input,
  Message,
  Modal,
  Popconfirm,
  Space,
  Table,
  type TableColumnProps,
  type TableProps,
  Tag,
} from '@arco-design/web-react';
import type { ReleaseEnv, ReleaseProcess, ReleaseTask } from '@atrium/contracts/release-items';
import { releaseLabel, type releaseLabels } from '@atrium/contracts/release-labels';
import { keepPreviousData, type UseQueryResult, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, http } from '../../api';
import { NoAccess } from '../../crud/NoAccess';
import { type Paging, pagedTable } from '../../crud/paged-table';
import type { ListParams } from '../../crud/resource-api';
import { useIsPhone } from '../../shell/useIsPhone';
import './messages';
import './release.css';

export type Listed<T> = { list: T[]; total: number };

/** A release table's column; `phone` keeps it on a phone's screen. */
export type ScreenColumn<T> = TableColumnProps<T> & { phone?: boolean };

/**
 * The columns a release table shows: all of them, or on a phone those marked `phone` (what names the
 * row, its status, its actions), as the generic lists do; the rest is on a wider screen.
 */
export function forScreen<T>(phone: boolean, columns: ScreenColumn<T>[]): TableColumnProps<T>[] {
  return columns.filter((column) => !phone || column.phone).map(({ phone: _phone, ...column }) => column);
}

/** A row's actions: side by side, or one under the other on a phone, so the column stays narrow. */
export function RowActions({ children }: { children: ReactNode }) {
  const phone = useIsPhone();
  return (
    <Space direction={phone ? 'vertical' : 'horizontal'} size={phone ? 4 : 8}>
      {children}
    </Space>
  );
}
/** What the release routes answer, as the contracts describe it (`@atrium/contracts/release-items`). */
export type {
  ReleaseAbility as Ability,
  ReleaseClient as Client,
  ReleaseEnv as Env,
  ReleaseGrant as Grant,
  ReleaseProcess as Process,
  ReleaseProject as Project,
  ReleaseTask as Task,
} from '@atrium/contracts/release-items';
export type Variable = ReleaseEnv['variables'][number];
export type Step = ReleaseProcess['steps'][number];
export type StepRun = NonNullable<ReleaseTask['stepRuns']>[number];

/**
 * The first 200 rows of a release list, for what a page picks from or names (the projects on the task
 * page, the abilities of a process's steps), as the generic pickers take them. Quiet on failure: a page's own table says why
 * (`EmptyList`), and a list a page only picks from (the projects on the task page) is just empty,
 * instead of a toast for each list the role may not read.
 */
export function useList<T>(path: string, enabled = true) {
  return useQuery({
    queryKey: ['release', path],
    queryFn: () => http.get<Listed<T>>(`/api/release/${path}`, { params: { pageSize: 200 }, silent: true }),
    enabled,
  });
}

/**
 * One page of a release list the page's table pages through on the server (20 rows, the size the user
 * picks), with the table's pagination and what its search form asks (`search`: the filters, from the
 * first page). Invalidating `['release', path]` reloads it.
 */
export function usePagedList<T>(path: string) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState<Paging>({ pageNum: 1, pageSize: 20 });
  const [filters, setFilters] = useState<ListParams>({});
  const list = useQuery({
    queryKey: ['release', path, paging, filters],
    queryFn: () => http.get<Listed<T>>(`/api/release/${path}`, { params: { ...filters, ...paging }, silent: true }),
    placeholderData: keepPreviousData,
  });
  const search = (next: ListParams) => {
    setFilters(next);
    setPaging((p) => ({ ...p, pageNum: 1 }));
  };
  return { list, pagination: pagedTable(list, paging, setPaging, t).pagination, search };
}

/** What a release table shows when its list is empty: a list the role may not read says so, a failure says why. */
export function EmptyList({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 403) return <NoAccess />;
  return error instanceof Error ? <Empty description={error.message} /> : <Empty />;
}

const colours: Record<string, string> = {
  DRAFT: 'gray',
  PUBLISHED: 'green',
  DEPRECATED: 'orange',
  PENDING: 'orange',
  ACTIVE: 'green',
  DISABLED: 'gray',
  REVOKED: 'red',
  PENDING_APPROVAL: 'orange',
  QUEUED: 'arcoblue',
  RUNNING: 'cyan',
  SUCCEEDED: 'green',
  FAILED: 'red',
  PARTIAL: 'orange',
  CANCELLING: 'orange',
  CANCELED: 'gray',
  TIMED_OUT: 'red',
  LOST: 'magenta',
  REJECTED: 'gray',
  online: 'green',
  offline: 'gray',
};

/** A release code as a coloured tag, in words of the app's language (contracts' releaseLabels), never the code. */
export function StatusTag({ value, kind, label }: { value: string; kind?: keyof typeof releaseLabels; label?: string }) {
  const { i18n } = useTranslation();
  return <Tag color={colours[value] ?? 'gray'}>{label ?? (kind ? releaseLabel(kind, value, i18n.language) : value)}</Tag>;
}

type ServerField = { field: string; message: string };

/**
 * A release form's server-side checks under its fields: `submit` runs the write and keeps the fields
 * a 400 or 403 names; `item(field)` gives a Form.Item the error of that field and of anything inside it
 * (`variables.2.name` shows under `variables` as "3 · name: …"). The toast still says the request failed.
 */
export function useFormErrors() {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<ServerField[]>([]);
  const submit = async (work: () => Promise<unknown>, done?: () => void) => {
    setErrors([]);
    try {
      await work();
      Message.success(t('crud.saved'));
      done?.();
    } catch (error) {
      const fields = error instanceof ApiError ? (error.data as { fields?: ServerField[] } | undefined)?.fields : undefined;
      setErrors(fields ?? []);
    }
  };
  const item = (field: string) => {
    const own = errors.filter((e) => e.field === field || e.field.startsWith(`${field}.`));
    if (!own.length) return {};
    const help = own
      .map((e) => {
        const rest = e.field
          .slice(field.length + 1)
          .split('.')
          .filter(Boolean);
        const where = rest.map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : part)).join(' · ');
        return where ? `${where}: ${e.message}` : e.message;
      })
      .join('; ');
    return { validateStatus: 'error' as const, help };
  };
  return { submit, item, clear: () => setErrors([]) };
}

/** Runs a write; a failure was already shown by the http layer (its message in the user's language). */
export async function attempt(work: () => Promise<unknown>, done?: () => void) {
  try {
    await work();
    done?.();
  } catch {
    // shown by the http layer
  }
}

export const paramsToText = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
export const textToParams = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')).trim(), line.slice(line.indexOf('=') + 1)]),
  );

/** The key (fixed once saved) and name every release record starts its form with. */
export function KeyNameFields<T extends { id?: number; key: string; name: string }>({
  value,
  onChange,
  errors,
}: {
  value: T;
  onChange: (next: T) => void;
  errors?: ReturnType<typeof useFormErrors>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={t('release.key')} required {...errors?.item('key')}>
        <Input value={value.key} disabled={!!value.id} onChange={(key) => onChange({ ...value, key })} aria-label={t('release.key')} />
      </Form.Item>
      <Form.Item label={t('release.name')} required {...errors?.item('name')}>
        <Input value={value.name} onChange={(name) => onChange({ ...value, name })} aria-label={t('release.name')} />
      </Form.Item>
    </>
  );
}

/**
 * Delete for a row of a release list, behind a confirmation naming it. One that something still uses
 * is refused by the server with what uses it ("The project has 2 process(es): it cannot be deleted"),
 * shown by the http layer; the row stays.
 */
export function DeleteAction({ path, id, name }: { path: 'env' | 'project' | 'process'; id: number; name: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  return (
    <Popconfirm
      title={t('crud.deleteConfirmNamed', { name })}
      onOk={() =>
        attempt(
          () => http.delete(`/api/release/${path}/${id}`),
          () => {
            Message.success(t('crud.deleted'));
            void client.invalidateQueries({ queryKey: ['release', path] });
          },
        )
      }
    >
      <Button size="mini" status="danger">
        {t('crud.delete')}
      </Button>
    </Popconfirm>
  );
}

/** A release page's table: its whole list (these lists are short, no pages), the columns for the screen, why it is empty. */
export function ListTable<T extends { id: number }>({
  list,
  columns,
  ...table
}: { list: UseQueryResult<Listed<T>>; columns: ScreenColumn<T>[] } & Omit<TableProps<T>, 'columns' | 'data'>) {
  const phone = useIsPhone();
  return (
    <Table
      rowKey="id"
      // the first load, and a new page or search while the last one's rows still show
      loading={list.isLoading || (list.isFetching && list.isPlaceholderData)}
      noDataElement={<EmptyList error={list.error} />}
      data={list.data?.list ?? []}
      pagination={false}
      columns={forScreen(phone, columns)}
      {...table}
    />
  );
}

/** The actions column, for a user who may do one of its actions only: a reader's would stay empty. */
export function actionsColumn<T>(title: string, shown: boolean, render: (row: T) => ReactNode): ScreenColumn<T>[] {
  return shown ? [{ title, phone: true, render: (_: unknown, row: T) => <RowActions>{render(row)}</RowActions> }] : [];
}

/** A list's toolbar between its search form and its table, spaced as the generic page's. */
export function Toolbar({ children }: { children: ReactNode }) {
  return (
    <div className="crud-toolbar" style={{ margin: '12px 0' }}>
      <Space>{children}</Space>
    </div>
  );
}

/** The button a page creates a record with, for a user who may. */
export function CreateButton({ shown, onClick }: { shown: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  if (!shown) return null;
  return (
    <Toolbar>
      <Button type="primary" onClick={onClick}>
        {t('release.create')}
      </Button>
    </Toolbar>
  );
}

/** A row's edit button. */
export function EditButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button size="mini" onClick={onClick}>
      {t('release.edit')}
    </Button>
  );
}

/** The dialog a record is created (no id yet) or edited in; closing it forgets what the server said of its fields. */
export function EditModal<E extends { id?: number }>({
  editing,
  onClose,
  onOk,
  errors,
  width,
  children,
}: {
  editing: E | null;
  onClose: () => void;
  onOk: () => void;
  errors: ReturnType<typeof useFormErrors>;
  width?: number;
  /** the form's fields for the record being edited */
  children: (editing: E) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      visible={!!editing}
      title={t(editing?.id ? 'release.edit' : 'release.create')}
      onCancel={() => {
        onClose();
        errors.clear();
      }}
      onOk={onOk}
      style={width ? { width } : undefined}
      unmountOnExit
    >
      {editing && <Form layout="vertical">{children(editing)}</Form>}
    </Modal>
  );
}
