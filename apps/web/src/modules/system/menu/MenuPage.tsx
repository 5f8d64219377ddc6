import { Tag } from '@arco-design/web-react';
import { type Menu, type MenuTreeNode, menuResource } from '@atrium/contracts/system/menu';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api';
import { ResourcePage } from '../../../crud/ResourcePage';
import { resourceKeys } from '../../../crud/resource-api';
import type { ColumnDef, FieldDef, TreeOption } from '../../../crud/types';
import { useSession } from '../../../services/session';
import '../shared/messages-admin';
import { statusOptions } from '../shared/options';
import { actionLabel } from '../shared/permission-actions';

type MenuRow = Menu & { children?: MenuRow[] };
const types = ['dir', 'menu', 'button', 'link'].map((v) => ({ label: `system.menu.type.${v}`, value: v }));
const prune = (nodes: MenuTreeNode[]): MenuRow[] =>
  nodes.map(({ children, ...n }) => (children.length ? { ...n, children: prune(children) } : n));
const toOptions = (nodes: MenuTreeNode[]): TreeOption[] =>
  nodes
    .filter((n) => n.type !== 'button')
    .map((n) => ({ key: String(n.id), title: n.title, ...(n.children.length ? { children: toOptions(n.children) } : {}) }));

function useMenuTree() {
  // silent: the page shows a failed load in place of its rows, without a toast besides
  return useQuery({
    queryKey: resourceKeys(menuResource).extra('tree'),
    queryFn: () => http.get<MenuTreeNode[]>('/api/system/menu/tree', { silent: true }),
  });
}
function useRows() {
  const tree = useMenuTree();
  return { ...tree, data: tree.data ? prune(tree.data) : undefined };
}

/** The global menu catalogue as a tree; only the platform's super admin edits it. */
export function MenuPage() {
  const { t } = useTranslation();
  const superAdmin = useSession((s) => s.userInfo?.userType === '00');
  const tree = useMenuTree();
  const columns: ColumnDef<MenuRow>[] = [
    {
      key: 'title',
      title: 'system.menu.title',
      width: 220,
      // a phone shows the name and the actions: the type and the paths need a wider screen
      phone: true,
      render: (m) => (m.type === 'button' ? actionLabel(t, m.title) : m.locale ? `${t(m.locale)} (${m.title})` : m.title),
    },
    { key: 'type', title: 'system.menu.type', width: 90, render: (m) => <Tag>{t(`system.menu.type.${m.type}`)}</Tag> },
    // the order beside the name it sorts, before the long paths and permissions (which may need a scroll)
    { key: 'orderNum', title: 'crud.orderNum', width: 80 },
    { key: 'routeName', title: 'system.menu.routeName' },
    { key: 'path', title: 'system.menu.path', long: true },
    { key: 'permission', title: 'system.menu.permission' },
    { key: 'icon', title: 'system.menu.icon', hidden: true },
  ];
  const form: FieldDef[] = [
    { field: 'parentId', label: 'system.menu.parent', type: 'treeSelect', treeData: toOptions(tree.data ?? []), wide: true },
    { field: 'type', label: 'system.menu.type', type: 'radio', options: types, wide: true },
    { field: 'title', label: 'system.menu.title' },
    { field: 'orderNum', label: 'crud.orderNum', type: 'number' },
    { field: 'routeName', label: 'system.menu.routeName', visible: (v) => v.type !== 'button' },
    { field: 'path', label: 'system.menu.path', visible: (v) => v.type !== 'button' },
    { field: 'locale', label: 'system.menu.locale' },
    { field: 'icon', label: 'system.menu.icon', visible: (v) => v.type !== 'button' },
    { field: 'permission', label: 'system.menu.permission' },
    { field: 'activeMenu', label: 'system.menu.activeMenu', visible: (v) => v.type === 'menu' },
    { field: 'hideInMenu', label: 'system.menu.hideInMenu', type: 'switch' },
    { field: 'hideChildrenInMenu', label: 'system.menu.hideChildrenInMenu', type: 'switch' },
    { field: 'requiresAuth', label: 'system.menu.requiresAuth', type: 'switch' },
    { field: 'status', label: 'crud.status', type: 'radio', options: statusOptions },
  ];
  return (
    <ResourcePage<MenuRow>
      resource={menuResource}
      columns={columns}
      form={superAdmin ? form : undefined}
      nameOf={(m) => m.title}
      tree={{ useRows }}
      createDefaults={{
        type: 'menu',
        orderNum: 0,
        requiresAuth: true,
        hideInMenu: false,
        hideChildrenInMenu: false,
        status: '0',
        roles: ['*'],
      }}
      toForm={({ children: _c, ...m }) => m}
    />
  );
}
