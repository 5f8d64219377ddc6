import type { Analysis, AnalysisDataset } from '@atrium/contracts/dashboard';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { http } from '../../api/http';
import { authHeaders } from '../../crud/ExportButton';

export type Granularity = 'day' | 'week' | 'month';
export type AnalysisFilters = {
  range: [string, string];
  granularity: Granularity;
  warehouseId?: number;
  categoryId?: number;
};

export const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The last 30 days, today included. */
export const defaultRange = (): [string, string] => [dayjs().subtract(29, 'day').format('YYYY-MM-DD'), dayjs().format('YYYY-MM-DD')];

function paramsOf(filters: AnalysisFilters): Record<string, string> {
  const params: Record<string, string> = {
    from: filters.range[0],
    to: filters.range[1],
    granularity: filters.granularity,
    tz: timeZone(),
  };
  if (filters.warehouseId) params.warehouseId = String(filters.warehouseId);
  if (filters.categoryId) params.categoryId = String(filters.categoryId);
  return params;
}

/** The analysis of the chosen range and filters; the previous answer stays on screen while the next loads. */
export function useAnalysis() {
  const [filters, setFilters] = useState<AnalysisFilters>({ range: defaultRange(), granularity: 'day' });
  const query = useQuery({
    queryKey: ['dashboard', 'analysis', filters],
    queryFn: () => http.get<Analysis>('/api/dashboard/analysis', { params: paramsOf(filters) }),
    placeholderData: (previous) => previous,
  });
  return { filters, setFilters, query };
}

/** Downloads one chart's data as .xlsx (the server writes it in the page's language). */
export async function downloadDataset(filters: AnalysisFilters, dataset: AnalysisDataset, lang: string): Promise<void> {
  const query = new URLSearchParams({ ...paramsOf(filters), dataset });
  const response = await fetch(`/api/dashboard/analysis/export?${query}`, { headers: { ...authHeaders(), 'accept-language': lang } });
  if (!response.ok) throw new Error(`${response.status}`);
  saveAs(URL.createObjectURL(await response.blob()), `${dataset}-${filters.range[0]}-${filters.range[1]}.xlsx`, true);
}

/** Hands a URL to the browser as a download. */
export function saveAs(url: string, name: string, revoke = false): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  if (revoke) setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const yuan = (fen: number) => fen / 100;
