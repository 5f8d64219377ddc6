import { Badge, Button, Drawer, Message, Popconfirm, Table, Tag } from '@arco-design/web-react';
import {
  type Printer,
  type PrintJob,
  paperWidths,
  printerKinds,
  printerResource,
  printerVendors,
  printJobResource,
  printTriggers,
  printWorkerErrors,
  reprintableStatuses,
} from '@atrium/contracts/mall/printer';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api';
import { useCan } from '../../components/permission';
import { ResourcePage } from '../../crud/ResourcePage';
import { resourceKeys } from '../../crud/resource-api';
import type { ColumnDef, FieldDef } from '../../crud/types';
import { SourceSelect } from '../../crud/widgets';
import { formatDateTime } from '../../locale/datetime';
import { onRealtime } from '../../realtime/events';
import './messages';
import { VendorAccounts } from './VendorAccounts';
import './mall.css';

const stateColour: Record<string, string> = { online: 'green', offline: 'gray', 'paper-out': 'orange' };
export const jobColour: Record<string, string> = {
  PENDING: 'gray',
  SENT: 'arcoblue',
  PRINTED: 'green',
  FAILED: 'red',
  EXPIRED: 'orange',
  CANCELLED: 'gray',
  UNKNOWN: 'orange',
};
const JOBS_KEY = ['mall', 'printJob'] as const;
/** The worker's own last errors, said in the app's language; a printer's or vendor's is shown as it came. */
const workerErrors: Record<string, string> = {
  [printWorkerErrors.noAck]: 'mall.printJob.error.noAck',
  [printWorkerErrors.senderStopped]: 'mall.printJob.error.senderStopped',
};

/** Every printer event (state, job result) refreshes what the page shows: the list and open job lists. */
export function usePrinterLive() {
  const client = useQueryClient();
  useEffect(
    () =>
      onRealtime('printer', () => {
        void client.invalidateQueries({ queryKey: resourceKeys(printerResource).all });
        void client.invalidateQueries({ queryKey: JOBS_KEY });
      }),
    [client],
  );
}

/** Printers with their live state, a test print and each printer's jobs. */
export function PrinterPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [jobsOf, setJobsOf] = useState<Printer>();
  const [vendors, setVendors] = useState(false);
  usePrinterLive();
  const client = useQueryClient();
  const test = useMutation({
    mutationFn: (id: number) => http.post<PrintJob>(`/api/mall/printer/${id}/test`, {}),
    onSuccess: (job) => {
      Message.success(t('mall.printer.testSent', { id: job.id }));
      return client.invalidateQueries({ queryKey: JOBS_KEY });
    },
  });
  const options = (prefix: string, values: readonly (string | number)[]) => values.map((v) => ({ label: t(`${prefix}.${v}`), value: v }));
  const columns: ColumnDef<Printer>[] = [
    { key: 'name', title: 'mall.printer.name', phone: true },
    { key: 'vendor', title: 'mall.printer.vendor', render: (p) => t(`mall.printer.vendor.${p.vendor}`) },
    { key: 'sn', title: 'mall.printer.sn' },
    { key: 'paperWidth', title: 'mall.printer.paperWidth', render: (p) => `${p.paperWidth} mm` },
    {
      key: 'state',
      title: 'mall.printer.state',
      phone: true,
      render: (p) => (
        <Tag color={stateColour[p.state]} data-testid={`printer-state-${p.sn}`}>
          {t(`mall.printer.state.${p.state}`)}
        </Tag>
      ),
    },
    { key: 'lastSeen', title: 'mall.printer.lastSeen', render: (p) => formatDateTime(p.lastSeen) },
    {
      key: 'triggers',
      title: 'mall.printer.triggers',
      render: (p) => p.triggers.map((tr) => <Tag key={tr}>{t(`mall.printer.trigger.${tr}`)}</Tag>),
    },
  ];
  const form: FieldDef[] = [
    { field: 'name', label: 'mall.printer.name' },
    { field: 'vendor', label: 'mall.printer.vendor', type: 'select', options: options('mall.printer.vendor', printerVendors) },
    { field: 'kind', label: 'mall.printer.kind', type: 'radio', options: options('mall.printer.kind', printerKinds) },
    {
      field: 'paperWidth',
      label: 'mall.printer.paperWidth',
      type: 'radio',
      options: paperWidths.map((w) => ({ label: `${w} mm`, value: w })),
    },
    { field: 'sn', label: 'mall.printer.sn' },
    { field: 'deviceKey', label: 'mall.printer.deviceKey', type: 'password', placeholder: 'mall.printer.deviceKeyHint' },
    { field: 'copies', label: 'mall.printer.copies', type: 'number' },
    { field: 'triggers', label: 'mall.printer.triggers', type: 'multiSelect', options: options('mall.printer.trigger', printTriggers) },
    {
      field: 'warehouseId',
      label: 'mall.printer.warehouse',
      type: 'custom',
      render: (p) => <SourceSelect source="/erp/warehouse" {...p} />,
    },
    { field: 'template', label: 'mall.printer.template', type: 'textarea', wide: true, placeholder: 'mall.printer.templateHint' },
    { field: 'remark', label: 'crud.remark', type: 'textarea' },
  ];
  return (
    <>
      <ResourcePage<Printer>
        resource={printerResource}
        columns={columns}
        search={[
          { field: 'name', label: 'mall.printer.name' },
          { field: 'vendor', label: 'mall.printer.vendor', type: 'select', options: options('mall.printer.vendor', printerVendors) },
        ]}
        form={form}
        nameOf={(p) => p.name}
        createDefaults={{ vendor: 'mqtt', kind: 'receipt', paperWidth: 58, copies: 1, triggers: ['sale.confirmed'], status: '0' }}
        toForm={({ id: _id, state: _s, lastSeen: _l, createTime: _c, updateTime: _u, createBy: _cb, updateBy: _ub, ...rest }) => rest}
        toolbar={() =>
          can(printerResource.permission('query')) && (
            <Button onClick={() => setVendors(true)} data-testid="vendor-accounts">
              {t('mall.vendor.open')}
            </Button>
          )
        }
        rowActionPermissions={[printerResource.permission('test'), printJobResource.permission('list')]}
        rowActions={(p) => (
          <>
            {can(printerResource.permission('test')) && (
              <Button type="text" size="mini" loading={test.isPending && test.variables === p.id} onClick={() => test.mutate(p.id)}>
                {t('mall.printer.test')}
              </Button>
            )}
            {can(printJobResource.permission('list')) && (
              <Button type="text" size="mini" onClick={() => setJobsOf(p)} data-testid={`printer-jobs-${p.sn}`}>
                {t('mall.printer.jobs')}
              </Button>
            )}
          </>
        )}
      />
      <Drawer
        width={760}
        visible={Boolean(jobsOf)}
        title={`${t('mall.printer.jobs')} · ${jobsOf?.name ?? ''}`}
        footer={null}
        onCancel={() => setJobsOf(undefined)}
      >
        {jobsOf && <PrintJobList printerId={jobsOf.id} />}
      </Drawer>
      <VendorAccounts visible={vendors} onClose={() => setVendors(false)} canEdit={can(printerResource.permission('update'))} />
    </>
  );
}

/** A printer's jobs, newest first, following live; a pending or unknown one can be cancelled, an ended one reprinted. */
export function PrintJobList({ printerId }: { printerId: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const jobs = useQuery({
    queryKey: [...JOBS_KEY, printerId],
    queryFn: () => http.get<{ list: PrintJob[]; total: number }>('/api/mall/print-job', { params: { printerId, pageSize: 50 } }),
  });
  const cancel = useMutation({
    mutationFn: (id: number) => http.put<PrintJob>(`/api/mall/print-job/${id}/cancel`, {}),
    onSuccess: () => client.invalidateQueries({ queryKey: JOBS_KEY }),
  });
  const reprint = useMutation({
    mutationFn: (id: number) => http.post<PrintJob>(`/api/mall/print-job/${id}/reprint`, {}),
    onSuccess: (job) => {
      Message.success(t('mall.printJob.reprinted', { id: job.id }));
      return client.invalidateQueries({ queryKey: JOBS_KEY });
    },
  });
  return (
    <Table<PrintJob>
      rowKey="id"
      size="small"
      loading={jobs.isLoading}
      data={jobs.data?.list ?? []}
      pagination={false}
      expandedRowRender={(job) => <pre className="print-receipt">{job.text}</pre>}
      columns={[
        { title: t('mall.printJob.id'), dataIndex: 'id', width: 80 },
        { title: t('mall.printJob.bizNo'), dataIndex: 'bizNo' },
        {
          title: t('mall.printJob.status'),
          dataIndex: 'status',
          render: (_: unknown, job) => (
            <span>
              <Badge color={jobColour[job.status]} />{' '}
              <span data-testid={`job-status-${job.id}`}>{t(`mall.printJob.status.${job.status}`)}</span>
              {job.reprintOf !== null && (
                <Tag size="small" style={{ marginLeft: 6 }}>
                  {t('mall.printJob.reprintOf', { id: job.reprintOf })}
                </Tag>
              )}
            </span>
          ),
        },
        { title: t('mall.printJob.attempts'), dataIndex: 'attempts', width: 90 },
        {
          title: t('mall.printJob.lastError'),
          dataIndex: 'lastError',
          render: (v: string | null, job) =>
            v === null ? '—' : <span data-testid={`job-error-${job.id}`}>{workerErrors[v] ? t(workerErrors[v]) : v}</span>,
        },
        { title: t('mall.printJob.createTime'), dataIndex: 'createTime', render: (v: string) => formatDateTime(v) },
        {
          title: t('crud.actions'),
          dataIndex: 'actions',
          render: (_: unknown, job) => (
            <>
              {(job.status === 'PENDING' || job.status === 'UNKNOWN') && can(printJobResource.permission('cancel')) && (
                <Popconfirm title={t('mall.printJob.cancel')} onOk={() => cancel.mutateAsync(job.id)}>
                  <Button type="text" size="mini" status="danger">
                    {t('mall.printJob.cancel')}
                  </Button>
                </Popconfirm>
              )}
              {reprintableStatuses.includes(job.status) && can(printJobResource.permission('reprint')) && (
                <Popconfirm title={t('mall.printJob.reprintConfirm')} onOk={() => reprint.mutateAsync(job.id)}>
                  <Button type="text" size="mini" data-testid={`job-reprint-${job.id}`}>
                    {t('mall.printJob.reprint')}
                  </Button>
                </Popconfirm>
              )}
            </>
          ),
        },
      ]}
    />
  );
}
