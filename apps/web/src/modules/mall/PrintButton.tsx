import { Badge, Message, Modal, Select } from '@arco-design/web-react';
import type { Printer, PrintJob } from '@atrium/contracts/mall/printer';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api';
import { onRealtime } from '../../realtime/events';
import './messages';
import { jobColour } from './PrinterPage';

/**
 * Printing a sales order: pick a printer, send, and watch the job's status follow live. The page owns
 * it (one per page), so it survives the row menu that opened it closing.
 */
export function PrintDialog({ saleId, onClose }: { saleId: number | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const open = saleId !== undefined;
  const [printerId, setPrinterId] = useState<number>();
  const [job, setJob] = useState<PrintJob>();
  const printers = useQuery({
    enabled: open,
    queryKey: ['mall', 'printer', 'options'],
    queryFn: () => http.get<{ list: Printer[] }>('/api/mall/printer', { params: { pageSize: 200 } }),
  });
  const print = useMutation({
    mutationFn: (id: number) => http.post<PrintJob>(`/api/erp/sale/${saleId}/print`, { printerId: id }),
    onSuccess: (sent) => {
      setJob(sent);
      Message.success(t('mall.print.sent', { id: sent.id }));
    },
  });
  const jobId = job?.id;
  useEffect(() => {
    if (jobId === undefined) return;
    const reload = () => void http.get<PrintJob>(`/api/mall/print-job/${jobId}`).then(setJob);
    const stop = onRealtime('printer', (message) => {
      if (message.event === 'job' && message.jobId === jobId) reload();
    });
    // what happened before this listener was there (a fast printer)
    reload();
    return stop;
  }, [jobId]);
  return (
    <Modal
      visible={open}
      title={t('mall.print.choose')}
      okText={t('mall.print')}
      okButtonProps={{ disabled: !printerId, loading: print.isPending }}
      onOk={() => {
        if (printerId && saleId) print.mutate(printerId);
      }}
      onCancel={() => {
        setJob(undefined);
        onClose();
      }}
    >
      <Select
        data-testid="print-printer"
        value={printerId}
        onChange={setPrinterId}
        placeholder={t('mall.print.choose')}
        options={(printers.data?.list ?? []).map((p) => ({
          label: `${p.name} · ${t(`mall.printer.state.${p.state}`)}`,
          value: p.id,
        }))}
      />
      {job && (
        <p style={{ marginTop: 16 }}>
          {t('mall.printJob.id')} {job.id}: <Badge color={jobColour[job.status]} />
          <span data-testid="print-job-status">{t(`mall.printJob.status.${job.status}`)}</span>
        </p>
      )}
    </Modal>
  );
}
