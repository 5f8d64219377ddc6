import { Tag } from '@arco-design/web-react';
import { dataScopes, type Role, roleResource } from '@atrium/contracts/system/role';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../../crud/ResourcePage';
import { resourceApi } from '../../../crud/resource-api';
import type { ColumnDef, FieldDef } from '../../../crud/types';
import '../shared/locale';
import { formatDateTime } from '../../../locale/datetime';
import { statusOptions } from '../shared/options';
import { DeptScopeTree } from './DeptScopeTree';
import { MenuGrantTree } from './MenuGrantTree';

const scopeOptions = dataScopes.map((v) => ({ label: `system.role.dataScope.${v}`, value: v }));

const form: FieldDef[] = [
  { field: 'name', label: 'system.role.name' },
  { field: 'code', label: 'system.role.code' },
  { field: 'orderNum', label: 'crud.orderNum', type: 'number' },
  { field: 'isDefault', label: 'system.role.isDefault', type: 'switch' },
  { field: 'status', label: 'crud.status', type: 'radio', options: statusOptions },
  { field: 'dataScope', label: 'system.role.dataScope', type: 'select', options: scopeOptions },
  {
    field: 'deptIds',
    label: 'system.role.depts',
    type: 'custom',
    visible: (v) => v.dataScope === '2',
    render: (p) => <DeptScopeTree {...p} />,
  },
  { field: 'menuIds', label: 'system.role.menus', type: 'custom', render: (p) => <MenuGrantTree {...p} /> },
  { field: 'remark', label: 'crud.remark', type: 'textarea' },
];
const search: FieldDef[] = [
  { field: 'name', label: 'system.role.name' },
  { field: 'code', label: 'system.role.code' },
  { field: 'status', label: 'crud.status', type: 'radio', options: statusOptions },
];

/** Roles: menu grant (buttons included), data scope and the default flag. */
export function RolePage() {
  const { t } = useTranslation();
  const columns: ColumnDef<Role>[] = [
    { key: 'name', title: 'system.role.name' },
    { key: 'code', title: 'system.role.code' },
    { key: 'dataScope', title: 'system.role.dataScope', render: (r) => t(`system.role.dataScope.${r.dataScope}`) },
    {
      key: 'isDefault',
      title: 'system.role.isDefault',
      render: (r) => (r.isDefault ? <Tag color="arcoblue">{t('crud.yes')}</Tag> : t('crud.no')),
    },
    { key: 'orderNum', title: 'crud.orderNum', width: 90 },
    { key: 'createBy', title: 'crud.createBy', hidden: true },
    { key: 'createTime', title: 'crud.createTime', render: (r) => formatDateTime(r.createTime) },
  ];
  return (
    <ResourcePage<Role>
      resource={roleResource}
      columns={columns}
      search={search}
      form={form}
      createDefaults={{ status: '0', orderNum: 0, dataScope: '1', isDefault: false, menuIds: [], deptIds: [] }}
      // the list leaves out the grant; editing loads the whole role
      toForm={(role) => resourceApi<Role>(roleResource).get(role.id)}
    />
  );
}
