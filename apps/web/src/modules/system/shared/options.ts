import type { DeptTreeNode } from '@atrium/contracts/system/dept';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../api';
import { resourceKeys } from '../../../crud/resource-api';
import type { Option, TreeOption } from '../../../crud/types';

export const statusOptions: Option[] = [
  { label: 'status.0', value: '0' },
  { label: 'status.1', value: '1' },
];

const toTree = (nodes: DeptTreeNode[]): TreeOption[] =>
  nodes.map((n) => ({ key: String(n.id), title: n.name, ...(n.children.length ? { children: toTree(n.children) } : {}) }));

/** The tenant's department tree, raw and as tree-select options. */
export function useDeptTree(params: Record<string, string | number | undefined> = {}, { silent = false } = {}) {
  const query = useQuery({
    queryKey: [...resourceKeys({ domain: 'system', name: 'dept' }).extra('tree'), params],
    // silent where the page shows a failed load in place of its rows (no toast besides)
    queryFn: () => http.get<DeptTreeNode[]>('/api/system/dept/tree', { params, silent }),
  });
  return { ...query, options: toTree(query.data ?? []) };
}

/** Enabled rows of a small resource (posts, roles) as select options. */
export function useOptions(name: 'post' | 'role', url: string) {
  const query = useQuery({
    queryKey: resourceKeys({ domain: 'system', name }).extra('options'),
    queryFn: () => http.get<{ list: { id: number; name: string }[] }>(url, { params: { pageSize: 200, status: '0' } }),
  });
  return (query.data?.list ?? []).map((r) => ({ label: r.name, value: r.id }));
}
