import { Tag } from '@arco-design/web-react';
import { codeLabel } from '@atrium/contracts/labels';
import { type LoginLog, loginLogEntity, loginResults } from '@atrium/contracts/system/audit';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../../crud/ExportButton';
import { columnsOf } from '../../../crud/fields';
import { ResourcePage } from '../../../crud/ResourcePage';
import type { FieldDef } from '../../../crud/types';
import '../shared/messages';
import '../shared/messages-admin';
import { formatDateTimeSeconds } from '../../../locale/datetime';

// codes the server writes read in the UI language; an unknown one shows as it is
const known = (key: string, raw: string) => (i18next.exists(key) ? i18next.t(key) : raw);

const { resource: loginLogResource, fields = [] } = loginLogEntity;
// the manifest's fields are the columns, as they are the export's; these cells say more than the value
const cells: Partial<Record<keyof LoginLog, (row: LoginLog) => ReactNode>> = {
  createTime: (r) => formatDateTimeSeconds(r.createTime),
  result: (r) => (
    <Tag color={r.result === 'success' ? 'green' : r.result === 'logout' ? 'gray' : 'red'}>
      {codeLabel('loginResult', r.result, i18next.language)}
    </Tag>
  ),
  reason: (r) => (r.reason ? known(`system.loginlog.reason.${r.reason}`, r.reason) : ''),
};
const results = loginResults.map((v) => ({ label: `system.loginlog.result.${v}`, value: v }));
const search: FieldDef[] = [
  { field: 'account', label: 'system.log.account' },
  { field: 'ip', label: 'system.log.ip' },
  { field: 'result', label: 'system.log.result', type: 'select', options: results },
  { field: 'createTime', label: 'system.log.time', type: 'dateRange' },
];

/** Every sign-in attempt into the tenant, with search and Excel export. */
export function LoginLogPage() {
  const { t } = useTranslation();
  const columns = columnsOf<LoginLog>(fields, t, false, cells);
  return (
    <ResourcePage<LoginLog>
      resource={loginLogResource}
      columns={columns}
      search={search}
      toolbar={(params) => <ExportButton resource={loginLogResource} params={params} />}
    />
  );
}
