import { Spin, Tree } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api';
import { resourceKeys } from '../../../crud/resource-api';
import { actionLabel } from '../shared/permission-actions';

type GrantNode = { id: number; title: string; locale: string | null; type: string; permission: string | null; children: GrantNode[] };
type TreeData = { key: string; title: string; children?: TreeData[] };

const leavesOf = (nodes: GrantNode[], into = new Set<number>()) => {
  for (const n of nodes) {
    if (n.children.length) leavesOf(n.children, into);
    else into.add(n.id);
  }
  return into;
};

/**
 * The menu grant: directories, menus and buttons. The stored grant holds checked and half-checked
 * entries (a granted button's menu must appear); the tree is fed the leaves and works the parents out.
 */
export function MenuGrantTree({ value, onChange }: { value: unknown; onChange: (ids: number[]) => void }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: resourceKeys({ domain: 'system', name: 'role' }).extra('menuTree'),
    queryFn: () => http.get<GrantNode[]>('/api/system/role/menuTree'),
  });
  const data = useMemo(() => {
    const convert = (nodes: GrantNode[]): TreeData[] =>
      nodes.map((n) => ({
        key: String(n.id),
        title: `${n.type === 'button' ? actionLabel(t, n.title) : n.locale ? t(n.locale) : n.title}${n.permission ? ` · ${n.permission}` : ''}`,
        ...(n.children.length ? { children: convert(n.children) } : {}),
      }));
    return convert(query.data ?? []);
  }, [query.data, t]);
  const leaves = useMemo(() => leavesOf(query.data ?? []), [query.data]);
  if (query.isLoading) return <Spin />;
  const ids = (value as number[] | undefined) ?? [];
  return (
    <div style={{ maxHeight: 360, overflow: 'auto', border: '1px solid var(--color-border-2)', padding: 8 }} data-testid="menu-grant">
      <Tree
        checkable
        treeData={data}
        checkedKeys={ids.filter((id) => leaves.has(id)).map(String)}
        onCheck={(keys, extra) => onChange([...keys, ...(extra.halfCheckedKeys ?? [])].map(Number))}
        size="small"
      />
    </div>
  );
}
