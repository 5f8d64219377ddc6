import { Descriptions, Table } from '@arco-design/web-react';
import type { Sale } from '@atrium/contracts/erp/sale';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../locale/money';

type Item = Sale['items'][number];

/** An order's lines and totals (yuan on screen, fen in the API). */
export function SaleLines({ sale }: { sale: Sale }) {
  const { t } = useTranslation();
  return (
    <>
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        data={sale.items}
        columns={[
          { title: t('erp.product.name'), render: (_: unknown, i: Item) => [i.productName, ...i.specValues].join(' / ') },
          { title: t('erp.sale.quantity'), dataIndex: 'quantity' },
          { title: t('erp.sale.unitPrice'), render: (_: unknown, i: Item) => formatMoney(i.unitPrice) },
          { title: t('erp.sale.discount'), render: (_: unknown, i: Item) => formatMoney(i.discount) },
          { title: t('erp.sale.amount'), render: (_: unknown, i: Item) => formatMoney(i.amount) },
        ]}
      />
      <Descriptions
        style={{ marginTop: 12 }}
        column={3}
        data={[
          { label: t('erp.sale.goodsAmount'), value: formatMoney(sale.goodsAmount) },
          { label: t('erp.sale.discountAmount'), value: formatMoney(sale.discountAmount) },
          { label: t('erp.sale.totalAmount'), value: formatMoney(sale.totalAmount) },
        ]}
      />
    </>
  );
}
