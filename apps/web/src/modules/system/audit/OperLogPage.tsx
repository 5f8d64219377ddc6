import { Tag, Tooltip } from '@arco-design/web-react';
import { codeLabel } from '@atrium/contracts/labels';
import { auditResults, type OperLog, operLogEntity } from '@atrium/contracts/system/audit';
import { useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api/http';
import { ExportButton } from '../../../crud/ExportButton';
import { columnsOf } from '../../../crud/fields';
import { ResourcePage } from '../../../crud/ResourcePage';
import type { FieldDef } from '../../../crud/types';
import '../shared/messages';
import { formatDateTimeSeconds } from '../../../locale/datetime';
import { actionLabel, moduleLabel } from '../shared/operation';

const { resource: operLogResource, fields = [] } = operLogEntity;
const MODULES_URL = `/api${operLogResource.basePath}/modules`;
/**
 * The entry's object as a person reads it: the entity, then what the row was called when it was
 * written (`用户 hq0001 张三`, `User hq0001 Zhang San`); entries from before names were kept show the id.
 */
const objectOf = (r: OperLog) => {
  const what = r.targetName ?? r.target;
  if (!what) return '';
  const key = `${r.module.replace(':', '.')}.entity`;
  if (!i18next.exists(key)) return what;
  const entity = i18next.t(key);
  return `${entity.charAt(0).toLocaleUpperCase() + entity.slice(1)} ${what}`;
};
const results = auditResults.map((v) => ({ label: `system.operlog.result.${v}`, value: v }));
const searchFields = (modules: string[]): FieldDef[] => [
  { field: 'operator', label: 'system.log.operator' },
  { field: 'module', label: 'system.log.module', type: 'select', options: modules.map((m) => ({ label: moduleLabel(m), value: m })) },
  { field: 'action', label: 'system.log.action' },
  { field: 'result', label: 'system.log.result', type: 'select', options: results },
  { field: 'createTime', label: 'system.log.time', type: 'dateRange' },
];

/** Every write in the tenant: who, what, on which target, the changes, result, duration and IP. */
export function OperLogPage() {
  const { t } = useTranslation();
  const modules = useQuery({
    queryKey: ['system', 'operlog', 'modules'],
    queryFn: () => http.get<string[]>(MODULES_URL),
    staleTime: Infinity,
  });
  const search = searchFields(modules.data ?? []);
  // the manifest's fields are the columns, as they are the export's; these cells say more than the value
  const cells: Partial<Record<keyof OperLog, (row: OperLog) => ReactNode>> = {
    createTime: (r) => formatDateTimeSeconds(r.createTime),
    // an operation made with a personal API token says so, and which token
    operator: (r) =>
      r.apiTokenId ? (
        <span>
          {r.operator} <Tag size="small">{t('system.operlog.viaToken', { id: r.apiTokenId })}</Tag>
        </span>
      ) : (
        r.operator
      ),
    module: (r) => t(moduleLabel(r.module)),
    action: (r) => actionLabel(r.action),
    target: objectOf,
    result: (r) => (
      <Tooltip content={r.errorMessage ?? ''} disabled={!r.errorMessage}>
        <Tag color={r.result === 'success' ? 'green' : 'red'}>{codeLabel('auditResult', r.result, i18next.language)}</Tag>
      </Tooltip>
    ),
    summary: (r) => (r.summary ? JSON.stringify(r.summary).slice(0, 200) : ''),
  };
  const columns = columnsOf<OperLog>(fields, t, false, cells);
  return (
    <ResourcePage<OperLog>
      resource={operLogResource}
      columns={columns}
      search={search}
      toolbar={(params) => <ExportButton resource={operLogResource} params={params} />}
    />
  );
}
