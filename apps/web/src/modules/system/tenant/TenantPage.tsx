import { DatePicker, Select } from '@arco-design/web-react';
import { type Tenant, tenantResource } from '@atrium/contracts/system/tenant';
import { ResourcePage } from '../../../crud/ResourcePage';
import type { ColumnDef, FieldDef } from '../../../crud/types';
import '../shared/messages-admin';
import { formatDateTime } from '../../../locale/datetime';
import { statusOptions } from '../shared/options';

const when = (v: string | null) => formatDateTime(v);
// the zones this browser knows (the server checks the name again)
const timeZones = Intl.supportedValuesOf('timeZone').map((zone) => ({ label: zone, value: zone }));
const columns: ColumnDef<Tenant>[] = [
  { key: 'code', title: 'system.tenant.code' },
  { key: 'name', title: 'system.tenant.name' },
  { key: 'contact', title: 'system.tenant.contact' },
  { key: 'expireTime', title: 'system.tenant.expireTime', render: (r) => when(r.expireTime) },
  { key: 'timeZone', title: 'system.tenant.timeZone', render: (r) => r.timeZone ?? '—' },
  { key: 'createTime', title: 'crud.createTime', render: (r) => when(r.createTime) },
];
const search: FieldDef[] = [
  { field: 'code', label: 'system.tenant.code' },
  { field: 'name', label: 'system.tenant.name' },
  { field: 'status', label: 'crud.status', type: 'radio', options: statusOptions },
];
const form: FieldDef[] = [
  { field: 'code', label: 'system.tenant.code', createOnly: true },
  { field: 'name', label: 'system.tenant.name' },
  { field: 'contact', label: 'system.tenant.contact' },
  {
    field: 'expireTime',
    label: 'system.tenant.expireTime',
    type: 'custom',
    // a moment in the user's time, sent as an instant; cleared, the tenant never expires
    render: ({ value, onChange, placeholder }) => (
      <DatePicker
        showTime
        value={typeof value === 'string' && value ? new Date(value) : undefined}
        onChange={(text) => onChange(text ? new Date(text).toISOString() : null)}
        placeholder={placeholder}
        style={{ width: '100%' }}
      />
    ),
  },
  {
    field: 'timeZone',
    label: 'system.tenant.timeZone',
    type: 'custom',
    placeholder: 'system.tenant.timeZone.platform',
    // whose calendar day numbers documents and makes "today"; cleared, the platform's
    render: ({ value, onChange, placeholder }) => (
      <Select
        showSearch
        allowClear
        options={timeZones}
        value={typeof value === 'string' && value ? value : undefined}
        onChange={(zone) => onChange(zone ?? null)}
        placeholder={placeholder}
      />
    ),
  },
  { field: 'status', label: 'crud.status', type: 'radio', options: statusOptions },
  { field: 'adminAccountId', label: 'system.tenant.adminAccountId', createOnly: true },
  { field: 'adminPassword', label: 'system.tenant.adminPassword', type: 'password', createOnly: true },
];

/** Tenants (super admin): creating one creates its admin role and first administrator. */
export function TenantPage() {
  return <ResourcePage<Tenant> resource={tenantResource} columns={columns} search={search} form={form} createDefaults={{ status: '0' }} />;
}
