import { Button } from '@arco-design/web-react';
import { type User, userResource } from '@atrium/contracts/system/user';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCan } from '../../../components/permission';
import { ResourcePage } from '../../../crud/ResourcePage';
import type { ColumnDef, FieldDef } from '../../../crud/types';
import { useSession } from '../../../services/session';
import '../shared/messages';
import { formatDateTime } from '../../../locale/datetime';
import { statusOptions, useDeptTree, useOptions } from '../shared/options';
import { AvatarInput } from './AvatarInput';
import { sexOptions, userTypeOptions } from './fields';
import { generatePassword, showInitialPassword } from './initial-password';
import { RemoveFactorsButton } from './RemoveFactorsButton';
import { ResetPasswordButton } from './ResetPasswordButton';
import { UserExcelButtons } from './UserExcelButtons';

/** Users of the tenant: the spec's user calls, department filter with sub-departments, posts and roles. */
export function UserPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan();
  const superAdmin = useSession((s) => s.userInfo?.userType === '00');
  // one's own second factors are removed in the user centre, with a code (the server refuses this route for them)
  const me = useSession((s) => s.userInfo?.accountId);
  const depts = useDeptTree();
  const posts = useOptions('post', '/api/system/post');
  const roles = useOptions('role', '/api/system/role');
  const columns: ColumnDef<User>[] = [
    { key: 'accountId', title: 'system.user.accountId' },
    { key: 'name', title: 'system.user.name' },
    // the name says who it is; the nickname is offered in the column settings, so every column fits at 1280 px
    { key: 'nickname', title: 'system.user.nickname', hidden: true },
    { key: 'deptName', title: 'system.user.dept' },
    { key: 'phone', title: 'system.user.phone' },
    { key: 'email', title: 'system.user.email', hidden: true },
    { key: 'userType', title: 'system.user.userType', render: (u) => t(`system.user.userType.${u.userType}`) },
    { key: 'createTime', title: 'system.user.createTime', render: (u) => formatDateTime(u.createTime) },
  ];
  const search: FieldDef[] = [
    { field: 'accountId', label: 'system.user.accountId', match: 'prefix' },
    { field: 'name', label: 'system.user.name', match: 'prefix' },
    { field: 'phone', label: 'system.user.phone', match: 'prefix' },
    { field: 'status', label: 'crud.status', type: 'radio', options: statusOptions },
    { field: 'deptId', label: 'system.user.dept', type: 'treeSelect', treeData: depts.options },
    { field: 'createTime', label: 'system.user.createTime', type: 'dateRange' },
  ];
  const form: FieldDef[] = [
    { field: 'accountId', label: 'system.user.accountId', createOnly: true },
    { field: 'password', label: 'system.user.password', type: 'password', createOnly: true, placeholder: 'system.user.password.auto' },
    { field: 'name', label: 'system.user.name' },
    { field: 'nickname', label: 'system.user.nickname' },
    { field: 'phone', label: 'system.user.phone' },
    { field: 'email', label: 'system.user.email' },
    { field: 'sex', label: 'system.user.sex', type: 'radio', options: sexOptions },
    { field: 'userType', label: 'system.user.userType', type: 'select', options: userTypeOptions },
    { field: 'deptId', label: 'system.user.dept', type: 'treeSelect', treeData: depts.options },
    { field: 'status', label: 'crud.status', type: 'radio', options: statusOptions },
    { field: 'postIds', label: 'system.user.posts', type: 'multiSelect', options: posts },
    { field: 'roleIds', label: 'system.user.roles', type: 'multiSelect', options: roles },
    { field: 'idNumber', label: 'system.user.idNumber' },
    { field: 'avatar', label: 'system.user.avatar', type: 'custom', render: (props) => <AvatarInput {...props} /> },
    { field: 'address', label: 'system.user.address', wide: true },
    { field: 'remark', label: 'crud.remark', type: 'textarea' },
  ];
  return (
    <ResourcePage<User>
      resource={userResource}
      columns={columns}
      search={search}
      form={form}
      nameOf={(u) => u.name || u.accountId}
      createDefaults={{ status: '0', userType: '02', postIds: [], roleIds: [] }}
      toolbar={(params) => <UserExcelButtons params={params} />}
      // no password typed: one is generated, sent, and shown once with a copy button
      prepareCreate={(values) => (values.password ? values : { ...values, password: generatePassword(), generated: true })}
      onCreated={(sent) => {
        if (sent.generated) showInitialPassword(String(sent.accountId), String(sent.password));
      }}
      // a super admin is changed by a super admin only (the server refuses anyone else)
      rowLocks={(u) =>
        u.userType === '00' && !superAdmin
          ? { edit: t('system.user.superAdminOnly'), delete: t('system.user.superAdminOnly'), status: t('system.user.superAdminOnly') }
          : {}
      }
      rowActionPermissions={['system:user:query', 'system:user:resetPwd']}
      rowActions={(u) => (
        <>
          {can('system:user:query') && (
            <Button type="text" size="mini" onClick={() => navigate(`/system/user/detail/${u.id}`)}>
              {t('crud.detail')}
            </Button>
          )}
          {can('system:user:resetPwd') && (u.userType !== '00' || superAdmin) && (
            <>
              <ResetPasswordButton id={u.id} name={u.name || u.accountId} />
              {u.accountId !== me && <RemoveFactorsButton id={u.id} name={u.name || u.accountId} />}
            </>
          )}
        </>
      )}
    />
  );
}
