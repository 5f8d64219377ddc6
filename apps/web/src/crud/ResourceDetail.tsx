import { Button, Card, Descriptions, Result, Skeleton, Space, Typography } from '@arco-design/web-react';
import { IconLeft } from '@arco-design/web-react/icon';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../api';
import './messages';
import type { WebResource } from './resource-api';
import { isRowId, useResourceItem } from './useResource';

export type DetailField<Item> = { key: string; label: string; render?: (item: Item) => ReactNode };

/** The detail page pattern: one record as labelled fields, with loading, not-found and error states. */
export function ResourceDetail<Item>({
  resource,
  id,
  fields,
  title,
  extra,
}: {
  resource: WebResource;
  id: string | undefined;
  fields: DetailField<Item>[];
  title: (item: Item) => ReactNode;
  extra?: (item: Item) => ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useResourceItem<Item>(resource, id);
  const back = (
    <Button icon={<IconLeft />} onClick={() => navigate(-1)}>
      {t('common.back')}
    </Button>
  );
  if (query.isLoading)
    return (
      <Card>
        <Skeleton animation text={{ rows: 6 }} />
      </Card>
    );
  if (query.isError || !query.data) {
    const missing = !isRowId(id) || (query.error instanceof ApiError && query.error.status === 404);
    return (
      <Card>
        <Result
          status={missing ? '404' : 'error'}
          title={t(missing ? 'crud.notFound' : 'crud.loadFailed')}
          extra={
            <Space>
              {back}
              {!missing && <Button onClick={() => query.refetch()}>{t('crud.retry')}</Button>}
            </Space>
          }
        />
      </Card>
    );
  }
  const item = query.data;
  return (
    <Card
      title={
        <Space>
          {back}
          <Typography.Text bold>{title(item)}</Typography.Text>
        </Space>
      }
      extra={extra?.(item)}
    >
      <Descriptions
        column={{ xs: 1, md: 2, xl: 3 }}
        border
        data={fields.map((f) => ({
          label: t(f.label),
          value: f.render ? f.render(item) : String((item as Record<string, unknown>)[f.key] ?? '—'),
        }))}
      />
    </Card>
  );
}
