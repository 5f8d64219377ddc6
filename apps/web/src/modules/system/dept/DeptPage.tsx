import { type Dept, type DeptTreeNode, deptResource } from '@atrium/contracts/system/dept';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../../crud/ResourcePage';
import type { ColumnDef, FieldDef } from '../../../crud/types';
import '../shared/messages';
import { formatDateTime } from '../../../locale/datetime';
import { statusOptions, useDeptTree } from '../shared/options';

type DeptRow = Dept & { children?: DeptRow[] };

// a leaf keeps no empty children array, or the table would draw an expander for it
const prune = (nodes: DeptTreeNode[]): DeptRow[] =>
  nodes.map(({ children, ...n }) => (children.length ? { ...n, children: prune(children) } : n));

const columns: ColumnDef<DeptRow>[] = [
  { key: 'name', title: 'system.dept.name', width: 240 },
  { key: 'leader', title: 'system.dept.leader' },
  { key: 'phone', title: 'system.dept.phone' },
  { key: 'email', title: 'system.dept.email', hidden: true },
  { key: 'orderNum', title: 'crud.orderNum', width: 90 },
  { key: 'createTime', title: 'crud.createTime', render: (d) => formatDateTime(d.createTime) },
];
const search: FieldDef[] = [
  { field: 'name', label: 'system.dept.name' },
  { field: 'status', label: 'crud.status', type: 'radio', options: statusOptions },
];

function useRows(params: Record<string, string | number | undefined>) {
  const tree = useDeptTree(params, { silent: true });
  return { ...tree, data: tree.data ? prune(tree.data) : undefined };
}

/** Departments as a tree table; disabling one disables its children, enabling one enables its parents. */
export function DeptPage() {
  const { t } = useTranslation();
  // the page's own tree: a failed load shows in place of the rows, without a toast
  const parents = useDeptTree({}, { silent: true });
  const form: FieldDef[] = [
    { field: 'parentId', label: 'system.dept.parent', type: 'treeSelect', treeData: parents.options, wide: true, notUnderSelf: true },
    { field: 'name', label: 'system.dept.name' },
    { field: 'leader', label: 'system.dept.leader' },
    { field: 'phone', label: 'system.dept.phone' },
    { field: 'email', label: 'system.dept.email' },
    { field: 'orderNum', label: 'crud.orderNum', type: 'number' },
    { field: 'status', label: 'crud.status', type: 'radio', options: statusOptions },
  ];
  return (
    <ResourcePage<DeptRow>
      resource={deptResource}
      columns={columns}
      search={search}
      form={form}
      tree={{ useRows }}
      createDefaults={{ status: '0', orderNum: 0 }}
      toForm={({ children: _c, ...d }) => d}
      // a department with sub-departments cannot go (the server refuses): its delete says why instead of
      // offering a confirmation that fails; the others are warned that members stop it too
      rowLocks={(d) => (d.children?.length ? { delete: t('system.dept.deleteHasChildren', { count: d.children.length }) } : {})}
      deleteWarning={() => t('system.dept.deleteUsersHint')}
      // the server carries a status down the tree (disabling) or up it (enabling): the confirmation says so
      statusWarning={(d, next) =>
        next === '1'
          ? d.children?.length
            ? t('system.dept.disableCascade')
            : undefined
          : d.parentId
            ? t('system.dept.enableCascade')
            : undefined
      }
    />
  );
}
