import { Space, type TableColumnProps } from '@arco-design/web-react';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../locale/datetime';

type T = (key: string) => string;
type Sent = { id: number; sender: string | null; createTime: string };

/**
 * The columns both message tables end with: who sent it, when, and the row's actions (given by the
 * page) side by side in a column of the given width.
 */
export function sentColumns<Row extends Sent>(t: T, actionsWidth: number, actions: (row: Row) => ReactNode): TableColumnProps<Row>[] {
  return [
    { title: t('notification.sender'), dataIndex: 'sender', width: 140, render: (_, row) => row.sender ?? '—' },
    { title: t('notification.time'), dataIndex: 'createTime', width: 180, render: (_, row) => formatDateTime(row.createTime) },
    { title: t('crud.actions'), dataIndex: 'id', width: actionsWidth, render: (_, row) => <Space size={0}>{actions(row)}</Space> },
  ];
}
