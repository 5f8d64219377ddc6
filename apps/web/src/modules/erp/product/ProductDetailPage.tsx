import { Button, Card, Form, Input, InputNumber, Message, Select, Space, Table } from '@arco-design/web-react';
import type { Product } from '@atrium/contracts/erp/product';
import { productResource } from '@atrium/contracts/erp/product';
import type { LedgerRow, StockRow } from '@atrium/contracts/erp/stock';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { http } from '../../../api';
import { useCan } from '../../../components/permission';
import { ResourceDetail } from '../../../crud/ResourceDetail';
import { resourceKeys } from '../../../crud/resource-api';
import { useResourceItem } from '../../../crud/useResource';
import { serverErrors } from '../../../crud/validation';
import { formatDateTime } from '../../../locale/datetime';
import '../messages';
import { SourceSelect } from '../../../crud/widgets';
import { formatMoney } from '../../../locale/money';
import { NegativeStockSwitch } from './NegativeStockSwitch';

const keys = resourceKeys(productResource);
type Paged<T> = { list: T[]; total: number };

/** Product detail: basics, SKUs, stock per warehouse, the ledger, and the stock adjustment form. */
export function ProductDetailPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const can = useCan();
  const client = useQueryClient();
  const [form] = Form.useForm();
  const product = useResourceItem<Product>(productResource, id);
  const stock = useQuery({
    queryKey: [...keys.extra('stock'), id],
    queryFn: () => http.get<Paged<StockRow>>('/api/erp/stock', { params: { productId: id, pageSize: 200 } }),
    // the stock and ledger of a product that exists: a wrong address shows the not-found page alone
    enabled: Boolean(product.data),
  });
  const ledger = useQuery({
    queryKey: [...keys.extra('ledger'), id],
    queryFn: () => http.get<Paged<LedgerRow>>('/api/erp/stock/ledger', { params: { productId: id, pageSize: 50 } }),
    enabled: Boolean(product.data),
  });
  const adjust = useMutation({
    mutationFn: (body: unknown) => http.post<{ quantity: number }>('/api/erp/stock/adjust', body, { silent: true }),
    onSuccess: (r) => {
      Message.success(t('erp.stock.adjusted', { quantity: r.quantity }));
      form.resetFields(['delta', 'remark']);
      return client.invalidateQueries({ queryKey: keys.all });
    },
  });
  const skuName = (values: string[]) => (values.length ? values.join(' / ') : t('erp.product.single'));

  const submit = async () => {
    const values = form.getFieldsValue() as { warehouseId?: number; skuId?: number; delta?: number; remark?: string };
    // the last try's errors go: each field shows what this one says about it, or nothing
    form.setFields(Object.fromEntries(['warehouseId', 'skuId', 'delta', 'remark'].map((f) => [f, { error: undefined }])));
    try {
      await adjust.mutateAsync({ ...values, remark: values.remark || undefined });
    } catch (error) {
      const errors = serverErrors(error, (f) => t(`erp.stock.${f === 'delta' ? 'delta' : f === 'warehouseId' ? 'warehouse' : 'sku'}`), t);
      if (errors) form.setFields(Object.fromEntries(Object.entries(errors).map(([f, message]) => [f, { error: { message } }])));
      else Message.error((error as Error).message);
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="medium">
      <ResourceDetail<Product>
        resource={productResource}
        id={id}
        title={(p) => `${p.name} (${p.code})`}
        fields={[
          { key: 'code', label: 'erp.product.code' },
          { key: 'categoryName', label: 'erp.product.category' },
          { key: 'unit', label: 'erp.product.unit' },
          { key: 'minPrice', label: 'erp.product.price', render: (p) => formatMoney(p.minPrice) },
          { key: 'stock', label: 'erp.product.stock' },
          { key: 'status', label: 'crud.status', render: (p) => t(`status.${p.status}`) },
        ]}
      />
      {product.data && (
        <Card title={t('erp.product.skus')}>
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            data={product.data.skus}
            columns={[
              { title: t('erp.product.specs'), render: (_: unknown, s: Product['skus'][number]) => skuName(s.specValues) },
              { title: t('erp.product.price'), render: (_: unknown, s: Product['skus'][number]) => formatMoney(s.price) },
              { title: t('erp.product.costPrice'), render: (_: unknown, s: Product['skus'][number]) => formatMoney(s.costPrice) },
              { title: t('erp.product.barcode'), dataIndex: 'barcode' },
            ]}
          />
        </Card>
      )}
      {product.data && (
        <>
          <Card title={t('erp.stock.title')}>
            <Table
              rowKey={(r: StockRow) => `${r.skuId}-${r.warehouseId}`}
              size="small"
              pagination={false}
              loading={stock.isLoading}
              data={stock.data?.list ?? []}
              columns={[
                { title: t('erp.stock.warehouse'), dataIndex: 'warehouseName' },
                { title: t('erp.stock.sku'), render: (_: unknown, r: StockRow) => skuName(r.specValues) },
                { title: t('erp.stock.quantity'), dataIndex: 'quantity' },
              ]}
            />
          </Card>
          {can('erp:product:adjust') && product.data && (
            <Card title={t('erp.stock.adjust')} extra={<NegativeStockSwitch />}>
              <Form form={form} layout="inline" onSubmit={submit} data-testid="stock-adjust">
                <Form.Item label={t('erp.stock.warehouse')} field="warehouseId">
                  <SourceSelect source="/erp/warehouse" style={{ width: 160 }} onChange={(v) => form.setFieldValue('warehouseId', v)} />
                </Form.Item>
                <Form.Item label={t('erp.stock.sku')} field="skuId">
                  <Select style={{ width: 200 }} options={product.data.skus.map((s) => ({ label: skuName(s.specValues), value: s.id }))} />
                </Form.Item>
                <Form.Item label={t('erp.stock.delta')} field="delta">
                  {/* no rounding here: a fraction is sent as typed and refused by name, never stored rounded */}
                  <InputNumber step={1} style={{ width: 140 }} />
                </Form.Item>
                <Form.Item label={t('erp.stock.remark')} field="remark">
                  <Input style={{ width: 160 }} maxLength={200} />
                </Form.Item>
                <Button type="primary" htmlType="submit" loading={adjust.isPending}>
                  {t('erp.stock.adjust')}
                </Button>
              </Form>
            </Card>
          )}
          <Card title={t('erp.ledger.title')}>
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              loading={ledger.isLoading}
              data={ledger.data?.list ?? []}
              data-testid="stock-ledger"
              columns={[
                { title: t('erp.ledger.time'), render: (_: unknown, r: LedgerRow) => formatDateTime(r.createTime) },
                { title: t('erp.stock.warehouse'), dataIndex: 'warehouseName' },
                { title: t('erp.stock.sku'), render: (_: unknown, r: LedgerRow) => skuName(r.specValues) },
                { title: t('erp.ledger.kind'), render: (_: unknown, r: LedgerRow) => t(`erp.ledger.kind.${r.kind}`) },
                { title: t('erp.ledger.delta'), render: (_: unknown, r: LedgerRow) => (r.delta > 0 ? `+${r.delta}` : r.delta) },
                { title: t('erp.ledger.balance'), dataIndex: 'balance' },
                { title: t('erp.ledger.refNo'), dataIndex: 'refNo' },
                { title: t('erp.ledger.operator'), dataIndex: 'operator' },
              ]}
            />
          </Card>
        </>
      )}
    </Space>
  );
}
