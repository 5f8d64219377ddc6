import { Tree } from '@arco-design/web-react';
import { useDeptTree } from '../shared/options';

/** Custom departments of a role's data scope: each checked department counts on its own. */
export function DeptScopeTree({ value, onChange }: { value: unknown; onChange: (ids: number[]) => void }) {
  const tree = useDeptTree();
  return (
    <div style={{ maxHeight: 240, overflow: 'auto', border: '1px solid var(--color-border-2)', padding: 8 }}>
      <Tree
        checkable
        checkStrictly
        treeData={tree.options}
        checkedKeys={((value as number[] | undefined) ?? []).map(String)}
        onCheck={(keys) => onChange(keys.map(Number))}
        size="small"
      />
    </div>
  );
}
