import { Message, Popconfirm, Space, Switch, Tooltip } from '@arco-design/web-react';
import type { StockSettings } from '@atrium/contracts/erp/stock';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api';
import { useCan } from '../../../components/permission';

const settingsKey = ['erp', 'stock', 'settings'];

/** The tenant's negative-stock switch (off by default); administrators change it, behind a confirm. */
export function NegativeStockSwitch() {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const settings = useQuery({ queryKey: settingsKey, queryFn: () => http.get<StockSettings>('/api/erp/stock/settings') });
  const save = useMutation({
    mutationFn: (allowNegativeStock: boolean) => http.put<StockSettings>('/api/erp/stock/settings', { allowNegativeStock }),
    onSuccess: (r) => {
      client.setQueryData(settingsKey, r);
      Message.success(t(r.allowNegativeStock ? 'erp.stock.negativeOn' : 'erp.stock.negativeOff'));
    },
  });
  const on = settings.data?.allowNegativeStock ?? false;
  const editable = can('erp:product:stockSettings');
  const control = (
    <Switch size="small" checked={on} loading={settings.isLoading || save.isPending} disabled={!editable} data-testid="negative-stock" />
  );
  return (
    <Space size="mini">
      {/* a card's `extra` is link-coloured; this is a label */}
      <span style={{ color: 'var(--color-text-2)' }}>{t('erp.stock.allowNegative')}</span>
      {editable ? (
        <Popconfirm title={t(on ? 'erp.stock.negativeConfirmOff' : 'erp.stock.negativeConfirmOn')} onOk={() => save.mutateAsync(!on)}>
          {control}
        </Popconfirm>
      ) : (
        <Tooltip content={t('erp.stock.negativeAdminOnly')}>{control}</Tooltip>
      )}
    </Space>
  );
}
