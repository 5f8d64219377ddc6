import { Message, Popconfirm, Switch } from '@arco-design/web-react';
import { type Activity, activityEntity } from '@atrium/contracts/erp/activity';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api';
import { useCan } from '../../../components/permission';
import { ExportButton } from '../../../crud/ExportButton';
import { ResourcePage } from '../../../crud/ResourcePage';
import { resourceKeys } from '../../../crud/resource-api';
import { DisabledReason } from '../../../crud/StatusSwitch';
import type { FieldDef } from '../../../crud/types';
import { serverErrors } from '../../../crud/validation';
import '../messages';
import { columnsOf, formOf, searchOf } from '../../../crud/fields';
import { SkuSelect } from '../shared/widgets';

const resource = activityEntity.resource;
const fields = activityEntity.fields ?? [];
// the fields of one type of activity show only while that type is chosen (the server keeps only those)
const forType: Record<string, string> = { discountPercent: 'discount', threshold: 'reduction', reduction: 'reduction' };
const form: FieldDef[] = [
  ...formOf(fields).map((f) => {
    const type = forType[f.field];
    return type ? { ...f, visible: (values: Record<string, unknown>) => values.type === type } : f;
  }),
  { field: 'skuIds', label: 'erp.activity.skus', type: 'custom', wide: true, render: (p) => <SkuSelect multiple {...p} /> },
];

/** Activities: the generic list and form plus the SKU picker and the Y/N switch with its confirm. */
export function ActivityPage() {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const toggle = useMutation({
    mutationFn: ({ id, status }: { id: number; status: 'Y' | 'N' }) =>
      http.put<Activity>(`/api/erp/activity/${id}/status`, { status }, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: resourceKeys(resource).all }),
  });
  const columns = columnsOf<Activity>(fields, t, false).map((c) =>
    c.key === 'status'
      ? {
          ...c,
          render: (a: Activity) => (
            <DisabledReason reason={can(resource.permission('status')) ? undefined : t('crud.statusReadOnly')}>
              <Popconfirm
                title={t(a.status === 'Y' ? 'erp.activity.disableConfirm' : 'erp.activity.enableConfirm', { name: a.name })}
                disabled={!can(resource.permission('status'))}
                onOk={async () => {
                  try {
                    await toggle.mutateAsync({ id: a.id, status: a.status === 'Y' ? 'N' : 'Y' });
                  } catch (error) {
                    const errors = serverErrors(error, () => a.name, t);
                    Message.error(errors ? Object.values(errors).join('; ') : (error as Error).message);
                  }
                }}
              >
                <Switch size="small" checked={a.status === 'Y'} disabled={!can(resource.permission('status'))} aria-label={a.name} />
              </Popconfirm>
            </DisabledReason>
          ),
        }
      : c,
  );
  return (
    <ResourcePage<Activity>
      resource={resource}
      columns={columns}
      search={searchOf(fields)}
      form={form}
      createDefaults={{ type: 'discount', discountPercent: 90, skuIds: [] }}
      toolbar={(params) => <ExportButton resource={resource} params={params} />}
    />
  );
}
