import { Select } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api';
import { formatMoney } from '../../../locale/money';

type SkuOption = { id: number; productName: string; productCode: string; specValues: string[]; price: number };
export const skuLabel = (s: Pick<SkuOption, 'productName' | 'specValues'>) => [s.productName, ...s.specValues].join(' / ');

/** Picks live SKUs by product name, code or barcode. */
export function SkuSelect({ value, onChange, multiple }: { value?: unknown; onChange: (v: unknown) => void; multiple?: boolean }) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const query = useQuery({
    queryKey: ['erp', 'sku', keyword],
    queryFn: () => http.get<{ list: SkuOption[] }>('/api/erp/sku', { params: { keyword: keyword || undefined, pageSize: 50 } }),
  });
  const options = (query.data?.list ?? []).map((s) => ({ label: `${skuLabel(s)} · ${formatMoney(s.price)}`, value: s.id }));
  return (
    <Select
      mode={multiple ? 'multiple' : undefined}
      value={value as number | number[] | undefined}
      onChange={onChange}
      options={options}
      showSearch
      filterOption={false}
      onSearch={setKeyword}
      placeholder={t('erp.sku.pick')}
      allowClear
    />
  );
}
