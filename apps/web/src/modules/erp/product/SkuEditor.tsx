import { Button, Form, Input, InputNumber, Space, Table } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyInput, TagsInput } from '../../../crud/widgets';

export type SpecInput = { name: string; values: string[] };
export type SkuInput = {
  id?: number;
  specValues: string[];
  price?: number;
  costPrice?: number;
  marketPrice?: number;
  barcode?: string | null;
  weight?: number;
};

/** Every combination of the specs' values, in spec order (颜色×尺码 → 红/S, 红/L, 蓝/S, 蓝/L). */
export function combinations(specs: SpecInput[]): string[][] {
  const usable = specs.filter((s) => s.name && s.values?.length);
  return usable.reduce<string[][]>((rows, spec) => rows.flatMap((row) => spec.values.map((v) => [...row, v])), [[]]);
}

/** The product's specs: a name and its values per row. */
export function SpecsEditor({ value, onChange }: { value?: unknown; onChange: (v: unknown) => void }) {
  const { t } = useTranslation();
  const specs = (Array.isArray(value) ? value : []) as SpecInput[];
  const set = (i: number, patch: Partial<SpecInput>) => onChange(specs.map((s, j) => (i === j ? { ...s, ...patch } : s)));
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {specs.map((spec, i) => (
        // the values take what the name and the delete button leave: a phone's drawer fits the row
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place
        <div key={i} className="editor-line editor-line-top">
          <Input
            style={{ width: 110, flex: 'none' }}
            placeholder={t('erp.product.specName')}
            value={spec.name}
            onChange={(name) => set(i, { name })}
            aria-label={t('erp.product.specName')}
          />
          <div className="editor-line-grow" data-testid="spec-values">
            <TagsInput
              value={spec.values}
              onChange={(values) => set(i, { values: values as string[] })}
              placeholder={t('erp.product.specValues')}
            />
          </div>
          <Button
            icon={<IconDelete />}
            status="danger"
            onClick={() => onChange(specs.filter((_, j) => j !== i))}
            aria-label={t('crud.delete')}
          />
        </div>
      ))}
      <Button icon={<IconPlus />} onClick={() => onChange([...specs, { name: '', values: [] }])} disabled={specs.length >= 5}>
        {t('erp.product.addSpec')}
      </Button>
    </Space>
  );
}

const keyOf = (values: string[]) => values.join('\u0001');

/** The SKU rows: one per combination of the specs (one row without specs), prices in yuan. */
export function SkusEditor({ value, onChange }: { value?: unknown; onChange: (v: unknown) => void }) {
  const { t } = useTranslation();
  const { form } = Form.useFormContext();
  const specs = ((form.getFieldValue('specs') as SpecInput[] | undefined) ?? []).filter((s) => s.name && s.values?.length);
  const skus = (Array.isArray(value) ? value : []) as SkuInput[];
  const wanted = combinations(specs);
  const wantedKeys = wanted.map(keyOf).join('|');
  const haveKeys = skus.map((s) => keyOf(s.specValues ?? [])).join('|');

  // keep rows (ids and prices) whose combination still exists; add the new ones
  useEffect(() => {
    if (wantedKeys === haveKeys) return;
    const byKey = new Map(skus.map((s) => [keyOf(s.specValues ?? []), s]));
    onChange(wanted.map((specValues) => byKey.get(keyOf(specValues)) ?? { specValues, price: undefined }));
  }, [wantedKeys, haveKeys, skus, wanted, onChange]);

  const set = (i: number, patch: Partial<SkuInput>) => onChange(skus.map((s, j) => (i === j ? { ...s, ...patch } : s)));
  return (
    <Table
      size="small"
      rowKey={(r: SkuInput) => keyOf(r.specValues ?? [])}
      pagination={false}
      data={skus}
      // each input keeps a width it can be typed in; a narrow drawer scrolls the grid sideways instead
      scroll={{ x: 'max-content' }}
      columns={[
        {
          title: t('erp.product.specs'),
          // a spec value (or "Single") is not broken mid-word in the narrow drawer
          render: (_: unknown, r: SkuInput) => (
            <span style={{ whiteSpace: 'nowrap' }}>{r.specValues?.length ? r.specValues.join(' / ') : t('erp.product.single')}</span>
          ),
        },
        {
          title: t('erp.product.price'),
          width: 130,
          render: (_: unknown, r: SkuInput, i: number) => (
            <MoneyInput value={r.price} onChange={(v) => set(i, { price: v as number })} placeholder={t('erp.product.price')} />
          ),
        },
        {
          title: t('erp.product.costPrice'),
          width: 130,
          render: (_: unknown, r: SkuInput, i: number) => (
            <MoneyInput value={r.costPrice} onChange={(v) => set(i, { costPrice: v as number })} />
          ),
        },
        {
          title: t('erp.product.barcode'),
          width: 150,
          render: (_: unknown, r: SkuInput, i: number) => <Input value={r.barcode ?? ''} onChange={(v) => set(i, { barcode: v })} />,
        },
        {
          title: t('erp.product.weight'),
          width: 110,
          render: (_: unknown, r: SkuInput, i: number) => <InputNumber value={r.weight} min={0} onChange={(v) => set(i, { weight: v })} />,
        },
      ]}
    />
  );
}
