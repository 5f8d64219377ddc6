import { Tag } from '@arco-design/web-react';
import { codeLabel } from '@atrium/contracts/labels';
import { type LoginLog, loginLogResource, loginResults } from '@atrium/contracts/system/audit';
import i18next from 'i18next';
import { ExportButton } from '../../../crud/ExportButton';
import { ResourcePage } from '../../../crud/ResourcePage';
import type { ColumnDef, FieldDef } from '../../../crud/types';
import '../shared/messages-admin';
import { formatDateTimeSeconds } from '../../../locale/datetime';

// codes the server writes read in the UI language; an unknown one shows as it is
const known = (key: string, raw: string) => (i18next.exists(key) ? i18next.t(key) : raw);

const columns: ColumnDef<LoginLog>[] = [
  { key: 'createTime', title: 'system.loginlog.time', render: (r) => formatDateTimeSeconds(r.createTime) },
  { key: 'account', title: 'system.loginlog.account' },
  {
    key: 'result',
    title: 'system.loginlog.result',
    render: (r) => (
      <Tag color={r.result === 'success' ? 'green' : r.result === 'logout' ? 'gray' : 'red'}>
        {codeLabel('loginResult', r.result, i18next.language)}
      </Tag>
    ),
  },
  {
    key: 'reason',
    title: 'system.loginlog.reason',
    render: (r) => (r.reason ? known(`system.loginlog.reason.${r.reason}`, r.reason) : ''),
  },
  { key: 'ip', title: 'system.operlog.ip' },
  { key: 'userAgent', title: 'system.loginlog.userAgent', hidden: true },
];
const results = loginResults.map((v) => ({ label: `system.loginlog.result.${v}`, value: v }));
const search: FieldDef[] = [
  { field: 'account', label: 'system.loginlog.account' },
  { field: 'ip', label: 'system.operlog.ip' },
  { field: 'result', label: 'system.loginlog.result', type: 'select', options: results },
  { field: 'createTime', label: 'system.loginlog.time', type: 'dateRange' },
];

/** Every sign-in attempt into the tenant, with search and Excel export. */
export function LoginLogPage() {
  return (
    <ResourcePage<LoginLog>
      resource={loginLogResource}
      columns={columns}
      search={search}
      toolbar={(params) => <ExportButton resource={loginLogResource} params={params} />}
    />
  );
}
