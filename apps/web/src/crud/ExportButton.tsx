import { Button, Message } from '@arco-design/web-react';
import { IconDownload } from '@arco-design/web-react/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getDeviceId, getToken } from '../api';
import { useCan } from '../components/permission';
import type { ListParams, WebResource } from './resource-api';

export const authHeaders = (): Record<string, string> => ({
  Authorization: `Bearer ${getToken() ?? ''}`,
  device: getDeviceId(),
  'device-type': 'web',
});

/** Downloads what the list shows (same filters and sort, every page) as .xlsx. */
export function ExportButton({ resource, params, label = 'crud.export' }: { resource: WebResource; params: ListParams; label?: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const [busy, setBusy] = useState(false);
  if (!resource.has('export') || !can(resource.permission('export'))) return null;
  const download = async () => {
    setBusy(true);
    try {
      const query = new URLSearchParams(
        Object.entries(params)
          .filter(([k, v]) => v !== undefined && v !== '' && k !== 'pageNum' && k !== 'pageSize')
          .map(([k, v]) => [k, String(v)]),
      );
      const response = await fetch(`/api${resource.paths.export}?${query}`, { headers: authHeaders() });
      if (!response.ok) throw new Error(t('crud.loadFailed'));
      const url = URL.createObjectURL(await response.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = `${resource.name}.xlsx`;
      a.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      Message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<IconDownload />} loading={busy} onClick={download}>
      {t(label)}
    </Button>
  );
}
