import { Button, Descriptions, Message, Modal, Popconfirm, Tag } from '@arco-design/web-react';
import { type Sale, type SaleTransition, saleEntity, saleTransitions } from '@atrium/contracts/erp/sale';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api';
import { useCan } from '../../../components/permission';
import { QrCode } from '../../../components/qr/QrCode';
import { ExportButton } from '../../../crud/ExportButton';
import { ResourcePage } from '../../../crud/ResourcePage';
import { resourceApi, resourceKeys } from '../../../crud/resource-api';
import type { FieldDef } from '../../../crud/types';
import { formatDateTime } from '../../../locale/datetime';
import { PrintDialog } from '../../mall/PrintButton';
import '../messages';
import { columnsOf, searchOf } from '../../../crud/fields';
import { SourceSelect } from '../../../crud/widgets';
import { LinesEditor } from './LinesEditor';
import { SaleLines } from './SaleLines';

const resource = saleEntity.resource;
const fields = saleEntity.fields ?? [];
const statusColour: Record<string, string> = {
  draft: 'gray',
  confirmed: 'arcoblue',
  shipped: 'orange',
  completed: 'green',
  cancelled: 'red',
};
const form: FieldDef[] = [
  { field: 'warehouseId', label: 'erp.sale.warehouse', type: 'custom', render: (p) => <SourceSelect source="/erp/warehouse" {...p} /> },
  {
    field: 'memberId',
    label: 'erp.sale.member',
    type: 'custom',
    render: (p) => <SourceSelect source="/erp/member" searchBy={['name', 'mobile']} {...p} />,
  },
  { field: 'items', label: 'erp.sale.items', type: 'custom', wide: true, render: (p) => <LinesEditor {...p} /> },
  { field: 'remark', label: 'crud.remark', type: 'textarea' },
];

/** Sales orders: list, create/edit in draft, the lines, and one button per allowed transition. */
export function SalePage() {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const [shown, setShown] = useState<Sale>();
  const move = useMutation({
    mutationFn: ({ id, transition }: { id: number; transition: SaleTransition }) => http.put<Sale>(`/api/erp/sale/${id}/${transition}`, {}),
    onSuccess: (sale, { transition }) => {
      Message.success(t(`erp.sale.done.${transition}`, { orderNo: sale.orderNo }));
      if (shown) setShown(sale);
      return client.invalidateQueries({ queryKey: resourceKeys(resource).all });
    },
  });
  const columns = columnsOf<Sale>(fields, t, false).map((c) =>
    c.key === 'status' ? { ...c, render: (s: Sale) => <Tag color={statusColour[s.status]}>{t(`erp.sale.status.${s.status}`)}</Tag> } : c,
  );
  const transitions = (sale: Sale) =>
    (Object.keys(saleTransitions) as SaleTransition[])
      .filter((tr) => (saleTransitions[tr].from as readonly string[]).includes(sale.status) && can(resource.permission(tr)))
      .map((tr) => (
        <Popconfirm
          key={tr}
          title={t('erp.sale.confirmPrompt', { orderNo: sale.orderNo, action: t(`erp.sale.${tr}`) })}
          onOk={() => move.mutateAsync({ id: sale.id, transition: tr })}
        >
          <Button type="text" size="mini" status={tr === 'cancel' ? 'danger' : undefined} data-testid={`sale-${tr}`}>
            {t(`erp.sale.${tr}`)}
          </Button>
        </Popconfirm>
      ));
  const [printing, setPrinting] = useState<number>();
  const printable = (sale: Sale) =>
    sale.status !== 'draft' && sale.status !== 'cancelled' && can(resource.permission('print')) ? (
      <Button type="text" size="mini" onClick={() => setPrinting(sale.id)} data-testid="sale-print">
        {t('mall.print')}
      </Button>
    ) : null;
  return (
    <>
      <ResourcePage<Sale>
        resource={resource}
        columns={columns}
        search={searchOf(fields)}
        form={form}
        nameOf={(s) => s.orderNo}
        rowLocks={(s) => ({
          edit: s.status === 'draft' ? undefined : t('erp.sale.editDraftOnly'),
          delete: s.status === 'draft' || s.status === 'cancelled' ? undefined : t('erp.sale.deleteDraftOnly'),
        })}
        createDefaults={{ items: [{ quantity: 1 }] }}
        toForm={async (s) => {
          const full = await resourceApi<Sale>(resource).get(s.id);
          return {
            warehouseId: full.warehouseId,
            memberId: full.memberId,
            remark: full.remark,
            items: full.items.map((i) => ({ skuId: i.skuId, quantity: i.quantity })),
          };
        }}
        toolbar={(params) => <ExportButton resource={resource} params={params} />}
        rowActions={(sale) => (
          <>
            {can(resource.permission('query')) && (
              <Button type="text" size="mini" onClick={async () => setShown(await resourceApi<Sale>(resource).get(sale.id))}>
                {t('crud.detail')}
              </Button>
            )}
            {transitions(sale)}
            {printable(sale)}
          </>
        )}
      />
      <Modal
        visible={Boolean(shown)}
        title={shown?.orderNo}
        footer={
          shown ? (
            <>
              {transitions(shown)}
              {printable(shown)}
            </>
          ) : null
        }
        onCancel={() => setShown(undefined)}
        style={{ width: 720 }}
      >
        {shown && (
          <>
            <div className="sale-head">
              <div className="sale-facts">
                <Tag color={statusColour[shown.status]}>{t(`erp.sale.status.${shown.status}`)}</Tag>
                <Descriptions
                  column={2}
                  size="small"
                  data={[
                    { label: t('erp.sale.warehouse'), value: shown.warehouseName },
                    { label: t('erp.sale.member'), value: shown.memberName ?? '—' },
                    { label: t('crud.createTime'), value: formatDateTime(shown.createTime) },
                    { label: t('crud.createBy'), value: shown.createBy ?? '—' },
                    ...(shown.confirmTime ? [{ label: t('erp.sale.confirmTime'), value: formatDateTime(shown.confirmTime) }] : []),
                    ...(shown.cancelTime ? [{ label: t('erp.sale.cancelTime'), value: formatDateTime(shown.cancelTime) }] : []),
                    { label: t('crud.remark'), value: shown.remark || '—', span: 2 },
                  ]}
                />
              </div>
              {/* the order number to scan at the counter or the warehouse */}
              <div data-testid="sale-qr">
                <QrCode value={shown.orderNo} size={120} margin={8} level="M" label={shown.orderNo} />
              </div>
            </div>
            <SaleLines sale={shown} />
          </>
        )}
      </Modal>
      {printing !== undefined && <PrintDialog saleId={printing} onClose={() => setPrinting(undefined)} />}
    </>
  );
}
