import { Button, InputNumber, Space } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { SkuSelect } from '../shared/widgets';

type Line = { skuId?: number; quantity?: number };

/** The order's lines: a SKU and a quantity each; prices come from the server. */
export function LinesEditor({ value, onChange }: { value?: unknown; onChange: (v: unknown) => void }) {
  const { t } = useTranslation();
  const lines = (Array.isArray(value) ? value : []) as Line[];
  const set = (i: number, patch: Line) => onChange(lines.map((l, j) => (i === j ? { ...l, ...patch } : l)));
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {lines.map((line, i) => (
        // the SKU takes what the quantity and the delete button leave: a phone's drawer fits the line
        // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity beyond their place
        <div key={i} className="editor-line">
          <div className="editor-line-grow" data-testid="sale-line-sku">
            <SkuSelect value={line.skuId} onChange={(v) => set(i, { skuId: v as number })} />
          </div>
          <InputNumber
            min={1}
            precision={0}
            value={line.quantity}
            onChange={(v) => set(i, { quantity: v })}
            placeholder={t('erp.sale.quantity')}
            aria-label={t('erp.sale.quantity')}
            style={{ width: 110, flex: 'none' }}
          />
          <Button
            icon={<IconDelete />}
            status="danger"
            aria-label={t('crud.delete')}
            onClick={() => onChange(lines.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      <Button icon={<IconPlus />} onClick={() => onChange([...lines, { quantity: 1 }])}>
        {t('erp.sale.addItem')}
      </Button>
      <span style={{ color: 'var(--color-text-3)' }}>{t('erp.sale.priceNote')}</span>
    </Space>
  );
}
