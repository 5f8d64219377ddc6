import type { Post } from '@atrium/contracts/system/post';
import { postResource } from '@atrium/contracts/system/post';
import { ResourcePage } from '../../../crud/ResourcePage';
import type { ColumnDef, FieldDef } from '../../../crud/types';
import '../shared/locale';
import { formatDateTime } from '../../../locale/datetime';
import { statusOptions } from '../shared/options';

const columns: ColumnDef<Post>[] = [
  { key: 'code', title: 'system.post.code' },
  { key: 'name', title: 'system.post.name' },
  { key: 'orderNum', title: 'crud.orderNum', width: 90 },
  { key: 'remark', title: 'crud.remark', hidden: true },
  { key: 'createTime', title: 'crud.createTime', render: (p) => formatDateTime(p.createTime) },
];
const search: FieldDef[] = [
  { field: 'code', label: 'system.post.code' },
  { field: 'name', label: 'system.post.name' },
  { field: 'status', label: 'crud.status', type: 'radio', options: statusOptions },
];
const form: FieldDef[] = [
  { field: 'code', label: 'system.post.code' },
  { field: 'name', label: 'system.post.name' },
  { field: 'orderNum', label: 'crud.orderNum', type: 'number' },
  { field: 'status', label: 'crud.status', type: 'radio', options: statusOptions },
  { field: 'remark', label: 'crud.remark', type: 'textarea' },
];

export function PostPage() {
  return (
    <ResourcePage<Post>
      resource={postResource}
      columns={columns}
      search={search}
      form={form}
      createDefaults={{ status: '0', orderNum: 0 }}
    />
  );
}
