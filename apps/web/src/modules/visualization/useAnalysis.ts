import type { Analysis, AnalysisDataset } from '@atrium/contracts/dashboard';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { http } from '../../api/http';
import { saveAs } from '../../crud/ExportButton';

export type Granularity = 'day' | 'week' | 'month';
export type AnalysisFilters = {
  range: [string, string];
  granularity: Granularity;
  warehouseId?: number;
  categoryId?: number;
};

/** The last 30 days, today included. */
export const defaultRange = (): [string, string] => [dayjs().subtract(29, 'day').format('YYYY-MM-DD'), dayjs().format('YYYY-MM-DD')];

function paramsOf(filters: AnalysisFilters): Record<string, string> {
  const params: Record<string, string> = {
    from: filters.range[0],
    to: filters.range[1],
    granularity: filters.granularity,
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

/** Downloads one chart's data as .xlsx (the server writes it in the app's language). */
export async function downloadDataset(filters: AnalysisFilters, dataset: AnalysisDataset): Promise<void> {
  const file = await http.download('/api/dashboard/analysis/export', { params: { ...paramsOf(filters), dataset }, silent: true });
  saveAs(URL.createObjectURL(file), `${dataset}-${filters.range[0]}-${filters.range[1]}.xlsx`, true);
}
