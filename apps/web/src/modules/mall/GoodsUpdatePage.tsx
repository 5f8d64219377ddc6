import { Alert, Button, Card, Form, Input, InputNumber, Message, Space, Table, Tabs, Tag, Tooltip } from '@arco-design/web-react';
import { codeLabel } from '@atrium/contracts/labels';
import { type Goods, goodsResource, updateGoodsSchema } from '@atrium/contracts/mall/goods';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { http } from '../../api';
import { resourceKeys } from '../../crud/resource-api';
import { type FieldErrors, issuesToErrors, serverErrors } from '../../crud/validation';
import './messages';
import { formatMoney } from '../../locale/money';

type Tab = 'basic' | 'price' | 'detail';
const TABS: Tab[] = ['basic', 'price', 'detail'];
/** Which tab each field of the update schema is on: saving opens the first tab with an error. */
const tabOf: Record<string, Tab> = { title: 'basic', subtitle: 'basic', images: 'basic', sort: 'basic', skus: 'price', detail: 'detail' };
const labels: Record<string, string> = {
  title: 'mall.goods.title',
  subtitle: 'mall.goods.subtitle',
  images: 'mall.goods.images',
  sort: 'mall.goods.sort',
  skus: 'mall.goods.mallPrice',
  detail: 'mall.goods.tab.detail',
};

type Draft = { title: string; subtitle: string; images: string; sort: number; detail: string; prices: Record<number, string> };

const toFen = (yuan: string): number | null => {
  const v = yuan.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(v)) return null;
  return Math.round(Number(v) * 100);
};

/** The goods update page: basic, price & stock, detail — checked tab by tab; prices in yuan here, fen in the API. */
export function GoodsUpdatePage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [tab, setTab] = useState<Tab>('basic');
  const [draft, setDraft] = useState<Draft>();
  const [errors, setErrors] = useState<FieldErrors>({});
  const goods = useQuery({
    queryKey: [...resourceKeys(goodsResource).all, 'update', id],
    queryFn: () => http.get<Goods>(`/api/mall/goods/${id}`),
  });
  useEffect(() => {
    const g = goods.data;
    if (!g || draft) return;
    setDraft({
      title: g.title,
      subtitle: g.subtitle ?? '',
      images: g.images.join('\n'),
      sort: g.sort,
      detail: g.detail ?? '',
      prices: Object.fromEntries(g.skus.map((s) => [s.skuId, (s.price / 100).toFixed(2)])),
    });
  }, [goods.data, draft]);

  const showErrors = (found: FieldErrors) => {
    setErrors(found);
    const first = TABS.find((tb) => Object.keys(found).some((f) => tabOf[f.split('.')[0] ?? ''] === tb));
    if (first) setTab(first);
  };
  const save = useMutation({
    mutationFn: (body: unknown) => http.put<Goods>(`/api/mall/goods/${id}`, body),
    onSuccess: (saved) => {
      Message.success(t('mall.goods.saved'));
      client.setQueryData([...resourceKeys(goodsResource).all, 'update', id], saved);
      return client.invalidateQueries({ queryKey: resourceKeys(goodsResource).all });
    },
    onError: (error) => {
      const found = serverErrors(error, (f) => t(labels[f.split('.')[0] ?? ''] ?? f), t);
      if (found) showErrors(Object.fromEntries(Object.entries(found).map(([k, v]) => [k.split('.')[0] ?? k, v])));
    },
  });
  if (!goods.data || !draft) return <Card loading={goods.isLoading} />;
  const g = goods.data;
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });

  const submit = () => {
    const found: FieldErrors = {};
    const skus = g.skus.map((s) => ({ skuId: s.skuId, price: toFen(draft.prices[s.skuId] ?? '') }));
    const bad = skus.find((s) => s.price === null || s.price <= 0);
    if (bad) found.skus = t('validation.format', { field: t('mall.goods.mallPrice') });
    const body = {
      title: draft.title,
      subtitle: draft.subtitle || null,
      images: draft.images
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
      sort: draft.sort,
      detail: draft.detail || null,
      skus: skus.map((s) => ({ skuId: s.skuId, price: s.price ?? 0 })),
    };
    const parsed = updateGoodsSchema.safeParse(body);
    if (!parsed.success)
      Object.assign(
        found,
        issuesToErrors(parsed.error.issues, (f) => t(labels[f] ?? f), t, body),
        found,
      );
    if (Object.keys(found).length) return showErrors(found);
    setErrors({});
    save.mutate(parsed.data);
  };
  const item = (field: string, children: React.ReactNode, label = labels[field] ?? field) => (
    <Form.Item
      label={t(label)}
      validateStatus={errors[field] ? 'error' : undefined}
      help={errors[field]}
      data-testid={`goods-field-${field}`}
    >
      {children}
    </Form.Item>
  );
  const errorOn = (tb: Tab) => Object.keys(errors).some((f) => tabOf[f] === tb);
  const title = (tb: Tab) => (
    <span data-testid={`goods-tab-${tb}`}>
      {t(`mall.goods.tab.${tb}`)}
      {errorOn(tb) && (
        <Tag color="red" size="small" style={{ marginLeft: 6 }}>
          !
        </Tag>
      )}
    </span>
  );
  return (
    <Card
      title={`${t('menu.mall.goodsUpdate')} · ${g.productCode}`}
      extra={
        <Space>
          <Tag color={g.shelf === 'on' ? 'green' : 'gray'}>{codeLabel('shelf', g.shelf, i18n.language)}</Tag>
          <Button onClick={() => navigate('/mall/goods')}>{t('mall.goods.back')}</Button>
          <Button type="primary" loading={save.isPending} onClick={submit} data-testid="goods-save">
            {t('crud.save')}
          </Button>
        </Space>
      }
    >
      <Tabs activeTab={tab} onChange={(k) => setTab(k as Tab)}>
        <Tabs.TabPane key="basic" title={title('basic')}>
          <Form layout="vertical" style={{ maxWidth: 640 }}>
            {item('title', <Input value={draft.title} onChange={(v) => set({ title: v })} maxLength={100} />)}
            {item('subtitle', <Input value={draft.subtitle} onChange={(v) => set({ subtitle: v })} />)}
            {item('images', <Input.TextArea value={draft.images} onChange={(v) => set({ images: v })} autoSize={{ minRows: 2 }} />)}
            {item('sort', <InputNumber value={draft.sort} min={0} max={9999} onChange={(v) => set({ sort: v ?? 0 })} />)}
          </Form>
        </Tabs.TabPane>
        <Tabs.TabPane key="price" title={title('price')}>
          {errors.skus && <Alert type="error" content={errors.skus} style={{ marginBottom: 12 }} />}
          <Alert type="info" content={t('mall.goods.stockNote')} style={{ marginBottom: 12 }} />
          <Table
            rowKey="skuId"
            pagination={false}
            data={g.skus}
            columns={[
              { title: t('mall.goods.sku'), dataIndex: 'specValues', render: (v: string[]) => v.join(' / ') || '—' },
              { title: t('mall.goods.skuPrice'), dataIndex: 'skuPrice', render: (v: number) => formatMoney(v) },
              {
                title: t('mall.goods.mallPrice'),
                dataIndex: 'price',
                render: (_: unknown, s) => (
                  <Input
                    data-testid={`goods-price-${s.skuId}`}
                    value={draft.prices[s.skuId]}
                    status={errors.skus && toFen(draft.prices[s.skuId] ?? '') === null ? 'error' : undefined}
                    onChange={(v) => set({ prices: { ...draft.prices, [s.skuId]: v } })}
                    style={{ width: 120 }}
                  />
                ),
              },
              { title: t('mall.goods.stock'), dataIndex: 'stock', render: (v: number) => <span data-testid="goods-sku-stock">{v}</span> },
              {
                title: t('mall.goods.delta'),
                dataIndex: 'delta',
                render: (_: unknown, s) => <StockDelta goodsId={g.id} skuId={s.skuId} />,
              },
            ]}
          />
        </Tabs.TabPane>
        <Tabs.TabPane key="detail" title={title('detail')}>
          <Form layout="vertical">
            {item(
              'detail',
              <Input.TextArea
                value={draft.detail}
                onChange={(v) => set({ detail: v })}
                autoSize={{ minRows: 8 }}
                placeholder={t('mall.goods.detailHint')}
              />,
            )}
          </Form>
        </Tabs.TabPane>
      </Tabs>
    </Card>
  );
}

/** A stock change for one SKU: `+3` or `-2` with a reason, through the ERP ledger. */
function StockDelta({ goodsId, skuId }: { goodsId: number; skuId: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [delta, setDelta] = useState('');
  const [reason, setReason] = useState('');
  const move = useMutation({
    mutationFn: () => http.post<Goods>(`/api/mall/goods/${goodsId}/stock`, { skuId, delta: Number(delta), remark: reason || null }),
    onSuccess: (goods) => {
      setDelta('');
      setReason('');
      Message.success(t('mall.goods.stockMoved', { stock: goods.skus.find((s) => s.skuId === skuId)?.stock ?? goods.stock }));
      return client.invalidateQueries({ queryKey: resourceKeys(goodsResource).all });
    },
  });
  const valid = /^[+-]?\d+$/.test(delta.trim()) && Number(delta) !== 0;
  // something typed that is no whole, non-zero change says why Apply stays off
  const wrong = delta.trim() !== '' && !valid;
  return (
    <Space>
      <Tooltip content={t('mall.goods.deltaWhole')} popupVisible={wrong}>
        <Input
          data-testid={`goods-delta-${skuId}`}
          value={delta}
          onChange={setDelta}
          placeholder={t('mall.goods.deltaHint')}
          status={wrong ? 'error' : undefined}
          style={{ width: 110 }}
        />
      </Tooltip>
      <Input value={reason} onChange={setReason} placeholder={t('mall.goods.reason')} style={{ width: 120 }} />
      <Button
        size="small"
        disabled={!valid}
        loading={move.isPending}
        onClick={() => move.mutate()}
        data-testid={`goods-delta-apply-${skuId}`}
      >
        {t('mall.goods.apply')}
      </Button>
    </Space>
  );
}
