import {
  Alert,
  Button,
  Card,
  Dropdown,
  Message,
  Popconfirm,
  Result,
  Space,
  Table,
  type TableColumnProps,
  Tooltip,
} from '@arco-design/web-react';
import { IconDelete, IconDown, IconPlus } from '@arco-design/web-react/icon';
import { Children, Fragment, isValidElement, type MouseEvent, type ReactElement, type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api';
import { useCan } from '../components/permission';
import { useIsPhone } from '../shell/useIsPhone';
import './crud.css';
import './messages';
import { NoAccess } from './NoAccess';
import { ResourceDrawer } from './ResourceDrawer';
import type { ListParams, WebResource } from './resource-api';
import { SearchForm } from './SearchForm';
import { DisabledReason, StatusSwitch } from './StatusSwitch';
import { type Density, TableSettings } from './TableSettings';
import type { ColumnDef, FieldDef, Row } from './types';
import { useResourceList, useResourceMutations } from './useResource';

export type ResourcePageProps<Item extends Row> = {
  resource: WebResource;
  columns: ColumnDef<Item>[];
  search?: FieldDef[];
  /** create/edit fields; without them the page is read-only */
  form?: FieldDef[];
  /** form values for editing a row (defaults to the row itself); may load the full record first */
  toForm?: (item: Item) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** the row's name in confirm prompts */
  nameOf?: (item: Item) => string;
  /** extra per-row actions (detail link, reset password…) */
  rowActions?: (item: Item) => ReactNode;
  /** the permissions behind `rowActions`: without any of them (and no edit/delete) there is no 操作 column */
  rowActionPermissions?: string[];
  /**
   * Why a row may not be edited or deleted right now (an order past its draft), in the user's words:
   * the button stays, disabled, with the reason on hover, instead of failing after the form is filled
   */
  rowLocks?: (item: Item) => { edit?: string; delete?: string; status?: string };
  /** what else flipping a row's status does, said in its confirmation ('0' is the status it would get) */
  statusWarning?: (item: Item, next: '0' | '1') => string | undefined;
  /** what a row says before it is deleted (defaults to `nameOf`): "确定删除“…”吗？" */
  deleteWarning?: (item: Item) => string | undefined;
  /** extra toolbar buttons (export, import, batch actions on the selected rows…) */
  toolbar?: (params: ListParams, selected: number[]) => ReactNode;
  /** a tree instead of pages (departments): all rows at once, children nested */
  tree?: { useRows: (params: ListParams) => { data?: Item[]; isLoading: boolean; isError: boolean; refetch: () => unknown } };
  /** see ResourceDrawer: complete a new record before it is checked, and act once it is created */
  prepareCreate?: (values: Record<string, unknown>) => Record<string, unknown>;
  onCreated?: (sent: Record<string, unknown>) => void;
  /** values a new row starts with */
  createDefaults?: Record<string, unknown>;
};

const PAGE_SIZE = 20;
// free text longer than this may be cut in its cell: it gets a tooltip
const LONG_TEXT = 24;

const parentIds = (rows: Row[]): number[] => rows.flatMap((r) => (r.children?.length ? [r.id, ...parentIds(r.children)] : []));

/**
 * The list page every resource shares: search with reset, a paged and sortable table with column
 * and density settings, row selection with batch delete, status switch and delete with confirm, and
 * the create/edit drawer. Buttons appear only with their permission; the server checks it anyway.
 */
export function ResourcePage<Item extends Row>(props: ResourcePageProps<Item>) {
  const { resource, columns, search = [], form, toForm, nameOf, rowActions, rowActionPermissions, deleteWarning, toolbar, tree } = props;
  const { rowLocks, statusWarning } = props;
  const { createDefaults = {}, prepareCreate, onCreated } = props;
  const { t, i18n } = useTranslation();
  const entityKey = `${resource.i18n}.entity`;
  const entity = i18n.exists(entityKey) ? t(entityKey) : undefined;
  const can = useCan();
  const phone = useIsPhone();
  const [filters, setFilters] = useState<ListParams>({});
  const [paging, setPaging] = useState({ pageNum: 1, pageSize: PAGE_SIZE });
  const [sort, setSort] = useState<string | undefined>();
  // the status column is the machinery's own, shown unless the user hides it
  const [visible, setVisible] = useState(() => [...columns.filter((c) => !c.hidden).map((c) => c.key), 'status']);
  const [density, setDensity] = useState<Density>('default');
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<{ id?: number; values: Record<string, unknown> }>();
  // a tree opens fully; rows the user folds stay folded
  const [folded, setFolded] = useState<number[]>([]);
  const params = { ...filters, ...(tree ? {} : paging), ...(sort ? { sort } : {}) };
  const paged = useResourceList<Item>(resource, params, { enabled: !tree });
  const treeRows = tree?.useRows(filters);
  const query = tree ? treeRows! : paged;
  const { setStatus, remove } = useResourceMutations<Item>(resource);
  const perm = (action: string) => can(resource.permission(action));
  const canWrite = {
    update: form && resource.has('update') && perm('update'),
    status: resource.has('status') && perm('status'),
    delete: resource.has('delete') && perm('delete'),
  };
  const label = (item: Item) => nameOf?.(item) ?? String((item as { name?: string }).name ?? item.id);
  const showActions =
    canWrite.update || canWrite.delete || (rowActions !== undefined && (rowActionPermissions?.some((p) => can(p)) ?? true));

  const removeRows = async (ids: number[]) => {
    // the HTTP client showed each refusal's reason (e.g. the department still has users)
    const { deleted, failed } = await remove.mutateAsync(ids);
    // what could not go stays selected, to see why or try again
    setSelected((current) => current.filter((id) => !deleted.includes(id)));
    if (!failed.length) Message.success(t('crud.deleted'));
    else if (deleted.length) Message.warning(t('crud.deletedSome', { deleted: deleted.length, failed: failed.length }));
  };

  // a phone shows the columns that identify a row, the status and the actions (not pinned: no room)
  const phoneKeys = columns.some((c) => c.phone)
    ? columns.filter((c) => c.phone).map((c) => c.key)
    : columns
        .filter((c) => !c.hidden)
        .slice(0, 2)
        .map((c) => c.key);
  const tableColumns = (() => {
    const shown: TableColumnProps<Item>[] = columns
      .filter((c) => visible.includes(c.key) && (!phone || phoneKeys.includes(c.key)))
      .map((c) => ({
        key: c.key,
        dataIndex: c.key,
        title: t(c.title),
        width: c.width,
        sorter: !tree && resource.sortable.includes(c.key),
        // columns take the width of their content; only long free text is cut, and shows whole on hover
        render: (value: unknown, item: Item) => {
          const shown = c.render ? c.render(item) : (value as ReactNode);
          if (!c.long) return shown;
          const text = typeof shown === 'string' ? shown : undefined;
          return (
            <span className="crud-cell-long" title={text && text.length > LONG_TEXT ? text : undefined}>
              {shown}
            </span>
          );
        },
      }));
    if (resource.has('status') && visible.includes('status')) {
      shown.push({
        key: 'status',
        title: t('crud.status'),
        render: (_: unknown, item: Item) => {
          const locked = rowLocks?.(item).status;
          const control = (
            <StatusSwitch
              status={item.status ?? '0'}
              name={label(item)}
              disabled={!canWrite.status || locked !== undefined}
              warning={statusWarning?.(item, item.status === '0' ? '1' : '0')}
              onChange={async (status) => {
                // a refusal was shown by the HTTP client; the switch stays as it was
                const done = await setStatus.mutateAsync({ id: item.id, status }).then(
                  () => true,
                  () => false,
                );
                if (done) Message.success(t(status === '0' ? 'crud.enabled' : 'crud.disabled', { name: label(item) }));
              }}
            />
          );
          // a greyed switch says why
          return <DisabledReason reason={canWrite.status ? locked : t('crud.statusReadOnly')}>{control}</DisabledReason>;
        },
      });
    }
    if (!showActions) return shown;
    shown.push({
      key: 'actions',
      title: t('crud.actions'),
      fixed: phone ? undefined : 'right',
      render: (_: unknown, item: Item) => {
        const locks = rowLocks?.(item) ?? {};
        return (
          // on a phone the actions stand one under the other (edit, 更多, delete): the column stays narrow
          <Space size={0} direction={phone ? 'vertical' : 'horizontal'} className="crud-row-actions">
            {canWrite.update &&
              (locks.edit ? (
                <Tooltip content={locks.edit}>
                  <Button type="text" size="mini" disabled>
                    {t('crud.edit')}
                  </Button>
                </Tooltip>
              ) : (
                <Button
                  type="text"
                  size="mini"
                  onClick={async () => setEditing({ id: item.id, values: toForm ? await toForm(item) : { ...item } })}
                >
                  {t('crud.edit')}
                </Button>
              ))}
            {canWrite.update || canWrite.delete ? <RowActions actions={rowActions?.(item)} allInMenu={phone} /> : rowActions?.(item)}
            {canWrite.delete && locks.delete && (
              <Tooltip content={locks.delete}>
                <Button type="text" size="mini" status="danger" disabled>
                  {t('crud.delete')}
                </Button>
              </Tooltip>
            )}
            {canWrite.delete && !locks.delete && (
              <Popconfirm
                title={t('crud.deleteConfirmNamed', { name: label(item) })}
                content={deleteWarning?.(item)}
                onOk={() => removeRows([item.id])}
              >
                <Button type="text" size="mini" status="danger">
                  {t('crud.delete')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        );
      },
    });
    return shown;
  })();

  const error = query.isError ? (query as { error?: unknown }).error : undefined;
  const errorMessage = error instanceof Error ? error.message : undefined;
  // nothing loaded yet: the failure shows in place of the table, under the search form (a search the
  // server refused can be changed there); a list the role may not read says so, without a form
  const failedFirst = query.isError && !query.data;
  if (failedFirst && error instanceof ApiError && error.status === 403) {
    return (
      <Card>
        <NoAccess />
      </Card>
    );
  }

  const rows = tree ? (treeRows?.data ?? []) : (paged.data?.list ?? []);
  const parents = tree ? parentIds(rows).filter((id) => !folded.includes(id)) : undefined;
  const settingsColumns = [...columns, ...(resource.has('status') ? [{ key: 'status', title: 'crud.status' }] : [])];

  return (
    <Card className="crud-page">
      <SearchForm
        fields={search}
        schema={resource.filters}
        onSearch={(next) => {
          setFilters(next);
          setPaging((p) => ({ ...p, pageNum: 1 }));
        }}
      />
      <div className="crud-toolbar" style={{ display: 'flex', justifyContent: 'space-between', margin: '12px 0' }}>
        <Space>
          {form && resource.has('create') && perm('create') && (
            <Button type="primary" icon={<IconPlus />} onClick={() => setEditing({ values: { ...createDefaults } })}>
              {t('crud.create')}
            </Button>
          )}
          {canWrite.delete && !tree && (
            <Popconfirm
              title={t('crud.batchDeleteConfirm', { count: selected.length })}
              disabled={!selected.length}
              onOk={() => removeRows(selected)}
            >
              <Button status="danger" disabled={!selected.length} icon={<IconDelete />}>
                {t('crud.batchDelete')}
                {selected.length ? ` (${selected.length})` : ''}
              </Button>
            </Popconfirm>
          )}
          {toolbar?.(params, selected)}
        </Space>
        <TableSettings
          columns={settingsColumns}
          visible={visible}
          onVisibleChange={setVisible}
          density={density}
          onDensityChange={setDensity}
          onRefresh={() => query.refetch()}
        />
      </div>
      {failedFirst && (
        <Result
          status="error"
          title={t('crud.loadFailed')}
          subTitle={errorMessage}
          extra={<Button onClick={() => query.refetch()}>{t('crud.retry')}</Button>}
        />
      )}
      {query.isError && !failedFirst && (
        // a later page or a refresh that failed: the rows on screen are the last ones that loaded
        <Alert
          type="error"
          style={{ marginBottom: 12 }}
          content={errorMessage ? `${t('crud.loadFailed')}: ${errorMessage}` : t('crud.loadFailed')}
          action={
            <Button size="mini" type="text" onClick={() => query.refetch()}>
              {t('crud.retry')}
            </Button>
          }
        />
      )}
      {!failedFirst && (
        <Table<Item>
          rowKey="id"
          size={density}
          {...(parents
            ? {
                expandedRowKeys: parents,
                onExpand: (row: Item, open: boolean) => setFolded((f) => (open ? f.filter((id) => id !== row.id) : [...f, row.id])),
              }
            : {})}
          loading={query.isLoading}
          columns={tableColumns}
          data={rows}
          className="crud-table"
          scroll={{ x: 'max-content' }}
          noDataElement={<Result status={null} title={t('crud.empty')} />}
          rowSelection={
            // a phone has no room for the selection column: rows are deleted one at a time there
            canWrite.delete && !tree && !phone
              ? { type: 'checkbox', selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }
              : undefined
          }
          pagination={
            tree
              ? false
              : {
                  current: paging.pageNum,
                  pageSize: paging.pageSize,
                  total: paged.data?.total ?? 0,
                  sizeCanChange: true,
                  showTotal: (total: number) => t('crud.total', { total }),
                }
          }
          onChange={(pagination, sorter) => {
            if (tree) return;
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            const nextSort = s?.field && s.direction ? `${String(s.field)}:${s.direction === 'ascend' ? 'asc' : 'desc'}` : undefined;
            // another order starts again at page 1, as another filter does
            setPaging({ pageNum: nextSort === sort ? (pagination.current ?? 1) : 1, pageSize: pagination.pageSize ?? PAGE_SIZE });
            setSort(nextSort);
          }}
        />
      )}
      {form && (
        <ResourceDrawer
          resource={resource}
          fields={form}
          entity={entity}
          prepareCreate={prepareCreate}
          onCreated={onCreated}
          editing={editing}
          onClose={() => setEditing(undefined)}
        />
      )}
    </Card>
  );
}

/** The buttons of a `rowActions` result, its fragments unwrapped and empty slots dropped. */
function actionList(node: ReactNode): ReactNode[] {
  return Children.toArray(node).flatMap((child) =>
    isValidElement(child) && child.type === Fragment
      ? actionList((child as ReactElement<{ children?: ReactNode }>).props.children)
      : [child],
  );
}

/**
 * Beside edit and delete, a page's own row actions: the first one inline, the others under 更多, so
 * the pinned column stays narrow enough for every other column to show at 1280 px. The menu keeps its
 * content mounted: an action that opens a dialog keeps it open after the menu closes.
 */
function RowActions({ actions, allInMenu }: { actions: ReactNode; allInMenu?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const list = actionList(actions);
  const [first, ...rest] = allInMenu && list.length > 1 ? [null, ...list] : list;
  // A chosen action closes the menu (its dialog stays: the content is kept mounted), unless it asked
  // for a confirmation anchored to it; answering that confirmation closes the menu too. Clicks inside
  // a dialog or a confirmation reach this handler through React's tree, though they are not in its DOM.
  const chosen = (event: MouseEvent) => {
    if ((event.target as Element).closest('.arco-popconfirm')) return setOpen(false);
    setTimeout(() => {
      if (!menu.current?.querySelector('.arco-popconfirm-open')) setOpen(false);
    });
  };
  return (
    <>
      {first}
      {rest.length > 0 && (
        <Dropdown
          droplist={
            // biome-ignore lint/a11y/useKeyWithClickEvents: the buttons inside take the keys; this only closes the menu after them
            // biome-ignore lint/a11y/noStaticElementInteractions: as above
            <div ref={menu} className="crud-more-actions" onClick={chosen}>
              {rest}
            </div>
          }
          popupVisible={open}
          onVisibleChange={setOpen}
          position="br"
          trigger="click"
          unmountOnExit={false}
        >
          <Button type="text" size="mini">
            {t('crud.more')}
            <IconDown />
          </Button>
        </Dropdown>
      )}
    </>
  );
}
