import { Tag } from '@arco-design/web-react';
import { type Role, roleEntity } from '@atrium/contracts/system/role';
import { useTranslation } from 'react-i18next';
import { columnsOf, formOf, searchOf } from '../../../crud/fields';
import { ResourcePage } from '../../../crud/ResourcePage';
import { resourceApi } from '../../../crud/resource-api';
import type { FieldDef } from '../../../crud/types';
import '../shared/messages';
import { DeptScopeTree } from './DeptScopeTree';
import { MenuGrantTree } from './MenuGrantTree';

const fields = roleEntity.fields ?? [];
const resource = roleEntity.resource;

/** The grant trees: the inputs of the role's menus and custom departments (the drawer's order is the manifest's). */
const trees: Record<string, Partial<FieldDef>> = {
  deptIds: { type: 'custom', visible: (v) => v.dataScope === '2', render: (p) => <DeptScopeTree {...p} /> },
  menuIds: { type: 'custom', render: (p) => <MenuGrantTree {...p} /> },
};
const form = formOf(fields).map((f) => ({ ...f, ...trees[f.field] }));
const search = searchOf(fields);
// the list's order: what the role reaches right after what names it
const listOrder = ['name', 'code', 'dataScope', 'isDefault', 'orderNum'];
const listed = (key: string) => (listOrder.includes(key) ? listOrder.indexOf(key) : listOrder.length);

/** Roles: menu grant (buttons included), data scope and the default flag. */
export function RolePage() {
  const { t } = useTranslation();
  const columns = columnsOf<Role>(fields, t, resource.has('status'))
    .sort((a, b) => listed(a.key) - listed(b.key))
    .map((c) =>
      c.key === 'isDefault' ? { ...c, render: (r: Role) => (r.isDefault ? <Tag color="arcoblue">{t('crud.yes')}</Tag> : t('crud.no')) } : c,
    );
  return (
    <ResourcePage<Role>
      resource={resource}
      columns={columns}
      search={search}
      form={form}
      createDefaults={roleEntity.createDefaults}
      // the list leaves out the grant; editing loads the whole role
      toForm={(role) => resourceApi<Role>(resource).get(role.id)}
    />
  );
}
