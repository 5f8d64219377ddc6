import { Tag } from '@arco-design/web-react';
import { type User, userResource } from '@atrium/contracts/system/user';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { type DetailField, ResourceDetail } from '../../../crud/ResourceDetail';
import '../shared/messages';
import { formatDateTime } from '../../../locale/datetime';
import { useOptions } from '../shared/options';

/** One user (systemUserDetail; the user menu stays active). */
export function UserDetailPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const posts = useOptions('post', '/api/system/post');
  const roles = useOptions('role', '/api/system/role');
  const names = (ids: number[], options: { label: string; value: number }[]) =>
    ids.map((i) => <Tag key={i}>{options.find((o) => o.value === i)?.label ?? i}</Tag>);
  const fields: DetailField<User>[] = [
    { key: 'accountId', label: 'system.user.accountId' },
    { key: 'name', label: 'system.user.name' },
    { key: 'nickname', label: 'system.user.nickname' },
    { key: 'phone', label: 'system.user.phone' },
    { key: 'email', label: 'system.user.email' },
    { key: 'sex', label: 'system.user.sex', render: (u) => (u.sex ? t(`system.user.sex.${u.sex}`) : '—') },
    { key: 'userType', label: 'system.user.userType', render: (u) => t(`system.user.userType.${u.userType}`) },
    { key: 'status', label: 'crud.status', render: (u) => <Tag color={u.status === '0' ? 'green' : 'red'}>{t(`status.${u.status}`)}</Tag> },
    { key: 'deptName', label: 'system.user.dept' },
    { key: 'postIds', label: 'system.user.posts', render: (u) => names(u.postIds, posts) },
    { key: 'roleIds', label: 'system.user.roles', render: (u) => names(u.roleIds, roles) },
    { key: 'idNumber', label: 'system.user.idNumber' },
    { key: 'address', label: 'system.user.address' },
    { key: 'remark', label: 'crud.remark' },
    { key: 'createBy', label: 'crud.createBy' },
    { key: 'createTime', label: 'crud.createTime', render: (u) => formatDateTime(u.createTime) },
    { key: 'updateBy', label: 'crud.updateBy' },
    { key: 'updateTime', label: 'crud.updateTime', render: (u) => formatDateTime(u.updateTime) },
  ];
  return <ResourceDetail<User> resource={userResource} id={id} fields={fields} title={(u) => `${u.name} (${u.accountId})`} />;
}
