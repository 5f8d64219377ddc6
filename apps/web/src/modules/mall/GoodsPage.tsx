import { Button, Message, Modal, Popover, Space, Tag } from '@arco-design/web-react';
import { codeLabel, codeOptions } from '@atrium/contracts/labels';
import { type Goods, goodsResource } from '@atrium/contracts/mall/goods';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { http } from '../../api';
import { useCan } from '../../components/permission';
import { QrCode } from '../../components/qr/QrCode';
import { qrLogo, scanDefaults } from '../../components/qr/qr';
import { ExportButton } from '../../crud/ExportButton';
import { ResourcePage } from '../../crud/ResourcePage';
import { resourceKeys } from '../../crud/resource-api';
import type { ColumnDef } from '../../crud/types';
import { SourceSelect } from '../../crud/widgets';
import './messages';
import { formatMoney } from '../../locale/money';

/** Where a goods' page lives in the mall: the link its QR code carries. */
export const goodsLink = (id: number) => `${window.location.origin}/mall/goods/${id}`;

/** Mall goods: search, shelf and category filters, batch on/off shelf, export, a QR code of each link. */
export function GoodsPage() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [publishing, setPublishing] = useState(false);
  const [productId, setProductId] = useState<number>();
  const refresh = () => client.invalidateQueries({ queryKey: resourceKeys(goodsResource).all });
  const shelve = useMutation({
    mutationFn: ({ ids, shelf }: { ids: number[]; shelf: 'on' | 'off' }) =>
      http.put<{ updated: number }>('/api/mall/goods/shelf', { ids, shelf }),
    onSuccess: (r) => {
      Message.success(t('mall.goods.shelved', { count: r.updated }));
      return refresh();
    },
  });
  const publish = useMutation({
    mutationFn: (id: number) => http.post<Goods>('/api/mall/goods', { productId: id }),
    onSuccess: (goods) => {
      setPublishing(false);
      void refresh();
      navigate(`/mall/goods/update/${goods.id}`);
    },
  });
  const shelfOptions = codeOptions('shelf', i18n.language);
  const columns: ColumnDef<Goods>[] = [
    { key: 'title', title: 'mall.goods.title', phone: true },
    { key: 'productCode', title: 'mall.goods.productCode' },
    { key: 'categoryName', title: 'mall.goods.category', render: (g) => g.categoryName ?? '—' },
    { key: 'price', title: 'mall.goods.price', render: (g) => formatMoney(g.price) },
    { key: 'stock', title: 'mall.goods.stock', render: (g) => <span data-testid={`goods-stock-${g.id}`}>{g.stock}</span> },
    {
      key: 'shelf',
      title: 'mall.goods.shelf',
      phone: true,
      render: (g) => <Tag color={g.shelf === 'on' ? 'green' : 'gray'}>{codeLabel('shelf', g.shelf, i18n.language)}</Tag>,
    },
    { key: 'sort', title: 'mall.goods.sort' },
    {
      key: 'qr',
      title: 'mall.goods.qr',
      render: (g) => (
        <Popover
          trigger="click"
          content={
            <QrCode
              value={goodsLink(g.id)}
              {...scanDefaults}
              size={240}
              logoSrc={qrLogo}
              downloadName={`goods-${g.id}`}
              className="qr-panel"
              label={t('mall.goods.link')}
            />
          }
        >
          <Button type="text" size="mini">
            {t('mall.goods.qr')}
          </Button>
        </Popover>
      ),
    },
  ];
  return (
    <>
      <ResourcePage<Goods>
        resource={goodsResource}
        columns={columns}
        search={[
          { field: 'title', label: 'mall.goods.title' },
          { field: 'shelf', label: 'mall.goods.shelf', type: 'select', options: shelfOptions },
          {
            field: 'categoryId',
            label: 'mall.goods.category',
            type: 'custom',
            render: (p) => <SourceSelect source="/erp/category" {...p} />,
          },
        ]}
        nameOf={(g) => g.title}
        rowActionPermissions={[goodsResource.permission('update'), goodsResource.permission('shelf')]}
        rowActions={(g) => (
          <>
            {can(goodsResource.permission('update')) && (
              <Button type="text" size="mini" onClick={() => navigate(`/mall/goods/update/${g.id}`)} data-testid={`goods-edit-${g.id}`}>
                {t('crud.edit')}
              </Button>
            )}
            {can(goodsResource.permission('shelf')) && (
              <Button type="text" size="mini" onClick={() => shelve.mutate({ ids: [g.id], shelf: g.shelf === 'on' ? 'off' : 'on' })}>
                {t(g.shelf === 'on' ? 'mall.goods.putOff' : 'mall.goods.putOn')}
              </Button>
            )}
          </>
        )}
        toolbar={(params, selected) => (
          <Space>
            {can(goodsResource.permission('create')) && (
              <Button type="primary" onClick={() => setPublishing(true)} data-testid="goods-publish">
                {t('mall.goods.publish')}
              </Button>
            )}
            {can(goodsResource.permission('shelf')) && (
              <>
                <Button disabled={!selected.length} onClick={() => shelve.mutate({ ids: selected, shelf: 'on' })}>
                  {t('mall.goods.batchOn')}
                </Button>
                <Button disabled={!selected.length} onClick={() => shelve.mutate({ ids: selected, shelf: 'off' })}>
                  {t('mall.goods.batchOff')}
                </Button>
              </>
            )}
            <ExportButton resource={goodsResource} params={params} />
          </Space>
        )}
      />
      <Modal
        visible={publishing}
        title={t('mall.goods.publishProduct')}
        okButtonProps={{ disabled: !productId, loading: publish.isPending }}
        onOk={() => {
          if (productId) publish.mutate(productId);
        }}
        onCancel={() => setPublishing(false)}
      >
        <div data-testid="goods-product">
          <SourceSelect
            source="/erp/product"
            withCode
            searchBy={['name', 'code']}
            placeholder={t('mall.goods.pickProduct')}
            style={{ width: '100%' }}
            value={productId}
            onChange={(v) => setProductId((v as number | null) ?? undefined)}
          />
        </div>
      </Modal>
    </>
  );
}
