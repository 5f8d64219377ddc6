import { Button } from '@arco-design/web-react';
import { IconDownload } from '@arco-design/web-react/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../api';
import { useCan } from '../components/permission';
import type { ListParams, WebResource } from './resource-api';

/** Hands a URL to the browser as a download. */
export function saveAs(url: string, name: string, revoke = false): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  if (revoke) setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Downloads what the list shows (same filters and sort, every page) as .xlsx. */
export function ExportButton({ resource, params, label = 'crud.export' }: { resource: WebResource; params: ListParams; label?: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const [busy, setBusy] = useState(false);
  if (!resource.has('export') || !can(resource.permission('export'))) return null;
  const download = async () => {
    setBusy(true);
    try {
      const { pageNum: _n, pageSize: _s, ...filters } = params;
      // the one client's headers: the app's language and the user's time zone write the sheet
      const file = await http.download(`/api${resource.paths.export}`, { params: filters as Record<string, string> });
      saveAs(URL.createObjectURL(file), `${resource.name}.xlsx`, true);
    } catch {
      // the client has said why
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
