import {
  Button,
  Card,
  Descriptions,
  Drawer,
  Form,
  Input,
  Message,
  Modal,
  Popconfirm,
  Radio,
  Select,
  Table,
  type TableColumnProps,
  Tag,
  TreeSelect,
} from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import type { Page } from '@atrium/contracts/envelope';
import {
  type Notice,
  type NoticeDetail,
  type NoticeScope,
  type NoticeSendResult,
  type NotificationType,
  noticeInputSchema,
  noticeScopes,
  notificationTypes,
} from '@atrium/contracts/realtime';
import type { DeptTreeNode } from '@atrium/contracts/system/dept';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api';
import { useCan } from '../../components/permission';
import { SearchForm } from '../../crud/SearchForm';
import type { FieldDef } from '../../crud/types';
import '../../crud/messages';
import { sentColumns } from './columns';
import './messages';
import { pagedTable } from '../../crud/paged-table';
import { formatDateTime } from '../../locale/datetime';

const KEY = ['system', 'notice'] as const;
type Filters = { title?: string; type?: NotificationType };
type TreeData = { key: string; title: string; children?: TreeData[] };

const searchFields: FieldDef[] = [
  { field: 'title', label: 'notification.title' },
  {
    field: 'type',
    label: 'notification.type',
    type: 'select',
    options: notificationTypes.map((v) => ({ value: v, label: `notification.type.${v}` })),
  },
];

const toTree = (nodes: DeptTreeNode[]): TreeData[] =>
  nodes.map((n) => ({ key: String(n.id), title: n.name, children: n.children?.length ? toTree(n.children) : undefined }));

/** Notices of the tenant: send to everyone, a role, a department (and below) or chosen users; read counts; withdraw. */
export function NoticePage() {
  const { t } = useTranslation();
  const can = useCan();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<Filters>({});
  const [paging, setPaging] = useState({ pageNum: 1, pageSize: 20 });
  const [sending, setSending] = useState(false);
  const [shown, setShown] = useState<number>();
  const params = { ...paging, ...filters };

  const list = useQuery({
    queryKey: [...KEY, 'list', params],
    queryFn: () => http.get<Page<Notice>>('/api/system/notice', { params }),
    placeholderData: keepPreviousData,
  });
  const detail = useQuery({
    queryKey: [...KEY, 'detail', shown],
    queryFn: () => http.get<NoticeDetail>(`/api/system/notice/${shown}`),
    enabled: shown !== undefined,
  });
  const withdraw = useMutation({
    mutationFn: (id: number) => http.delete(`/api/system/notice/${id}`),
    onSuccess: () => {
      Message.success(t('notice.withdrawn'));
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
  });

  const scopeLabel = (notice: Notice) =>
    t(`notice.scope.${notice.scope}`) + (notice.targetIds.length ? ` × ${notice.targetIds.length}` : '');
  const columns: TableColumnProps<Notice>[] = [
    { title: t('notification.title'), dataIndex: 'title', ellipsis: true },
    { title: t('notification.type'), dataIndex: 'type', width: 100, render: (_, n) => <Tag>{t(`notification.type.${n.type}`)}</Tag> },
    { title: t('notice.scope'), dataIndex: 'scope', width: 160, render: (_, n) => scopeLabel(n) },
    { title: t('notice.recipients'), dataIndex: 'recipients', width: 110 },
    ...sentColumns<Notice>(t, 160, (n) => (
      <>
        {can('system:notice:query') ? (
          <Button type="text" size="small" onClick={() => setShown(n.id)}>
            {t('crud.detail')}
          </Button>
        ) : null}
        {can('system:notice:delete') ? (
          <Popconfirm title={t('notice.withdrawConfirm')} onOk={() => withdraw.mutateAsync(n.id)}>
            <Button type="text" size="small" status="danger">
              {t('notice.withdraw')}
            </Button>
          </Popconfirm>
        ) : null}
      </>
    )),
  ];

  return (
    <Card>
      <SearchForm
        fields={searchFields}
        onSearch={(next) => {
          setFilters({ title: next.title as string | undefined, type: next.type as NotificationType | undefined });
          setPaging((p) => ({ ...p, pageNum: 1 }));
        }}
      />
      <div className="crud-toolbar" style={{ margin: '12px 0' }}>
        {can('system:notice:create') ? (
          <Button type="primary" icon={<IconPlus />} onClick={() => setSending(true)}>
            {t('notice.send')}
          </Button>
        ) : null}
      </div>
      <Table<Notice> rowKey="id" columns={columns} {...pagedTable(list, paging, setPaging, t)} />
      {sending ? <SendNoticeModal onClose={() => setSending(false)} /> : null}
      <Drawer width={520} title={t('notice.detail')} visible={shown !== undefined} onCancel={() => setShown(undefined)} footer={null}>
        {detail.data ? (
          <Descriptions
            column={1}
            data={[
              { label: t('notification.title'), value: detail.data.title },
              { label: t('notification.type'), value: t(`notification.type.${detail.data.type}`) },
              { label: t('notice.scope'), value: scopeLabel(detail.data) },
              { label: t('notice.recipients'), value: detail.data.recipients },
              { label: t('notice.readCount'), value: detail.data.readCount },
              { label: t('notification.sender'), value: detail.data.sender ?? '—' },
              { label: t('notification.time'), value: formatDateTime(detail.data.createTime) },
              { label: t('notification.content'), value: <div style={{ whiteSpace: 'pre-wrap' }}>{detail.data.content || '—'}</div> },
            ]}
          />
        ) : null}
      </Drawer>
    </Card>
  );
}

type SendValues = { title: string; content?: string; type: NotificationType; scope: NoticeScope; targetIds?: (number | string)[] };

function SendNoticeModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SendValues>();
  const [scope, setScope] = useState<NoticeScope>('tenant');
  const [userSearch, setUserSearch] = useState('');
  const roles = useQuery({
    queryKey: ['system', 'role', 'options'],
    queryFn: () => http.get<Page<{ id: number; name: string }>>('/api/system/role', { params: { pageSize: 200 } }),
    enabled: scope === 'role',
  });
  const depts = useQuery({
    queryKey: ['system', 'dept', 'tree'],
    queryFn: () => http.get<DeptTreeNode[]>('/api/system/dept/tree'),
    enabled: scope === 'dept',
  });
  const users = useQuery({
    queryKey: ['system', 'user', 'options', userSearch],
    queryFn: () =>
      http.get<Page<{ id: number; accountId: string; nickname: string; name: string }>>('/api/system/user/user', {
        params: { pageSize: 50, name: userSearch || undefined },
      }),
    enabled: scope === 'users',
    placeholderData: keepPreviousData,
  });
  const send = useMutation({
    mutationFn: (body: unknown) => http.post<NoticeSendResult>('/api/system/notice', body, { silent: true }),
  });

  const submit = async () => {
    // Arco rejects when a rule fails and has already shown the messages: nothing more to do
    const values = await form.validate().catch(() => null);
    if (!values) return;
    const parsed = noticeInputSchema.safeParse({ ...values, targetIds: (values.targetIds ?? []).map(Number) });
    if (!parsed.success) {
      form.setFields(
        Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), { error: { message: issue.message } }])),
      );
      return;
    }
    try {
      const result = await send.mutateAsync(parsed.data);
      if (result.live) Message.success(t('notice.sent'));
      else Message.warning(t('notice.delayed'));
      void queryClient.invalidateQueries({ queryKey: KEY });
      onClose();
    } catch (error) {
      Message.error((error as Error).message);
    }
  };

  return (
    <Modal
      visible
      title={t('notice.send')}
      onCancel={onClose}
      onOk={submit}
      okText={t('notice.sendButton')}
      confirmLoading={send.isPending}
      style={{ width: 600 }}
      unmountOnExit
    >
      <Form<SendValues>
        form={form}
        layout="vertical"
        initialValues={{ type: 'notice', scope: 'tenant' }}
        onValuesChange={(changed) => {
          if (changed.scope) {
            setScope(changed.scope);
            form.setFieldValue('targetIds', []);
          }
        }}
      >
        <Form.Item
          label={t('notification.title')}
          field="title"
          rules={[{ required: true, message: t('validation.required', { field: t('notification.title') }) }]}
        >
          <Input maxLength={200} showWordLimit />
        </Form.Item>
        <Form.Item label={t('notification.content')} field="content">
          <Input.TextArea maxLength={5000} showWordLimit autoSize={{ minRows: 3, maxRows: 8 }} />
        </Form.Item>
        <Form.Item label={t('notification.type')} field="type">
          <Radio.Group type="button" options={notificationTypes.map((v) => ({ value: v, label: t(`notification.type.${v}`) }))} />
        </Form.Item>
        <Form.Item label={t('notice.scope')} field="scope">
          <Radio.Group type="button" options={noticeScopes.map((v) => ({ value: v, label: t(`notice.scope.${v}`) }))} />
        </Form.Item>
        {scope === 'role' || scope === 'dept' || scope === 'users' ? (
          // one item a scope (its own key), so a picker never shows another scope's choices
          <Form.Item
            key={scope}
            label={t('notice.targets')}
            field="targetIds"
            rules={[{ required: true, type: 'array', minLength: 1, message: t('validation.required', { field: t('notice.targets') }) }]}
          >
            {scope === 'role' ? (
              <Select
                mode="multiple"
                loading={roles.isLoading}
                options={(roles.data?.list ?? []).map((r) => ({ value: r.id, label: r.name }))}
              />
            ) : scope === 'dept' ? (
              <TreeSelect multiple allowClear loading={depts.isLoading} treeData={toTree(depts.data ?? [])} />
            ) : (
              <Select
                mode="multiple"
                showSearch
                filterOption={false}
                placeholder={t('notice.targets.search')}
                onSearch={setUserSearch}
                loading={users.isFetching}
                options={(users.data?.list ?? []).map((u) => ({ value: u.id, label: `${u.nickname || u.name} (${u.accountId})` }))}
              />
            )}
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}
