import {
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Grid,
  Input,
  Message,
  Modal,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Steps,
  Table,
  Tag,
} from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { type Approval, type ApprovalRecord, approvalInputSchema, approvalStages } from '@atrium/contracts/centre';
import type { Page } from '@atrium/contracts/envelope';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { http } from '../../api/http';
import { useCan } from '../../components/permission';
import { useSchemaForm } from '../../crud/schema-form';
import { formatDateTime } from '../../locale/datetime';
import { useSession } from '../../services/session';
import '../visualization/messages';

const { Row, Col } = Grid;
type Summary = Omit<Approval, 'records'>;
const resultColor: Record<ApprovalRecord['result'], string> = { pass: 'green', auditing: 'orangered', rejected: 'red' };
const stageColor: Record<Approval['stage'], string> = { commit: 'gray', approval: 'orangered', finish: 'green' };
const KEY = ['profile', 'approval'] as const;

/** Spec §1 basic profile: parameter approvals running commit → approval → finish, with their records. */
export function BasicProfilePage() {
  const { t } = useTranslation();
  const [title, setTitle] = useState('');
  const [stage, setStage] = useState<string | undefined>();
  const [pageNum, setPageNum] = useState(1);
  const [selected, setSelected] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const can = useCan();

  const list = useQuery({
    queryKey: [...KEY, 'list', { title, stage, pageNum }],
    queryFn: () =>
      http.get<Page<Summary>>('/api/profile/approval', { params: { title: title || undefined, stage, pageNum, pageSize: 10 } }),
    placeholderData: keepPreviousData,
  });
  // a notification links to its approval (`?id=`); otherwise the newest shows
  const [search] = useSearchParams();
  const linked = Number(search.get('id')) || null;
  const current = selected ?? linked ?? list.data?.list[0]?.id ?? null;

  return (
    <Row gutter={16} className="analysis-grid">
      <Col xs={24} xl={10}>
        <Card
          bordered={false}
          title={t('approval.title')}
          extra={
            can('profile:approval:create') ? (
              <Button type="primary" size="small" icon={<IconPlus />} onClick={() => setCreating(true)} data-testid="approval-new">
                {t('approval.new')}
              </Button>
            ) : null
          }
        >
          <Space wrap style={{ marginBottom: 12 }}>
            <Input.Search
              allowClear
              placeholder={t('approval.search')}
              style={{ width: 200 }}
              onSearch={(v) => {
                setTitle(v);
                setPageNum(1);
              }}
            />
            <Select
              allowClear
              placeholder={t('approval.all')}
              style={{ width: 140 }}
              value={stage}
              onChange={(v) => {
                setStage(v);
                setPageNum(1);
              }}
              options={approvalStages.map((s) => ({ label: t(`approval.stage.${s}`), value: s }))}
            />
          </Space>
          <Table<Summary>
            rowKey="id"
            data-testid="approval-list"
            loading={list.isFetching}
            data={list.data?.list ?? []}
            noDataElement={<Empty description={t('approval.empty')} />}
            onRow={(row) => ({ onClick: () => setSelected(row.id), className: row.id === current ? 'row-selected' : undefined })}
            pagination={{ total: list.data?.total ?? 0, current: pageNum, pageSize: 10, onChange: setPageNum, size: 'small' }}
            columns={[
              { title: t('approval.number'), dataIndex: 'number', width: 150 },
              { title: t('approval.name'), dataIndex: 'title', ellipsis: true },
              {
                title: t('approval.stage'),
                dataIndex: 'stage',
                width: 90,
                render: (s: Approval['stage']) => <Tag color={stageColor[s]}>{t(`approval.stage.${s}`)}</Tag>,
              },
            ]}
          />
        </Card>
      </Col>
      <Col xs={24} xl={14}>
        {current ? <ApprovalDetail id={current} /> : <Card bordered={false}>{<Empty description={t('approval.pick')} />}</Card>}
      </Col>
      <CreateApproval
        visible={creating}
        onClose={(created) => {
          setCreating(false);
          if (created) setSelected(created);
        }}
      />
    </Row>
  );
}

function ApprovalDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const query = useQuery({ queryKey: [...KEY, id], queryFn: () => http.get<Approval>(`/api/profile/approval/${id}`) });
  const me = useSession((s) => s.userInfo?.accountId);
  const decide = useMutation({
    mutationFn: (result: 'pass' | 'rejected') => http.put<Approval>(`/api/profile/approval/${id}/decision`, { result }),
    onSuccess: (saved) => {
      client.setQueryData([...KEY, id], saved);
      void client.invalidateQueries({ queryKey: [...KEY, 'list'] });
      Message.success(t('approval.decided'));
    },
  });
  const a = query.data;
  if (query.error && !a) return <Card bordered={false}>{<Empty description={t('approval.notFound')} />}</Card>;
  if (!a) return <Card bordered={false}>{<Skeleton animation text={{ rows: 8 }} />}</Card>;
  const step = approvalStages.indexOf(a.stage) + 1;
  const rejected = a.records.some((r) => r.result === 'rejected');
  const waiting = a.stage === 'approval' && can('profile:approval:approve');
  // a change is decided by someone other than the person who committed it (the server refuses it too)
  const own = !!me && a.createBy?.toLowerCase() === me.toLowerCase();
  return (
    <Card
      bordered={false}
      title={`${a.number} · ${a.title}`}
      data-testid="approval-detail"
      extra={
        waiting && own ? (
          <Tag color="orangered" data-testid="approval-own">
            {t('approval.own')}
          </Tag>
        ) : waiting ? (
          <Space>
            <Popconfirm title={t('approval.confirmReject')} onOk={() => decide.mutate('rejected')}>
              <Button status="danger" loading={decide.isPending} data-testid="approval-reject">
                {t('approval.reject')}
              </Button>
            </Popconfirm>
            <Popconfirm title={t('approval.confirmPass')} onOk={() => decide.mutate('pass')}>
              <Button type="primary" loading={decide.isPending} data-testid="approval-pass">
                {t('approval.pass')}
              </Button>
            </Popconfirm>
          </Space>
        ) : null
      }
    >
      <Steps current={step} status={rejected ? 'error' : step === 3 ? 'finish' : 'process'} style={{ marginBottom: 24 }}>
        {approvalStages.map((s) => (
          <Steps.Step key={s} title={t(`approval.stage.${s}`)} />
        ))}
      </Steps>
      <Descriptions
        // two pairs a row from md up (a breakpoint left out falls back to three, too tight in this panel)
        column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 }}
        colon=" "
        labelStyle={{ width: 96 }}
        // a long value wraps inside its cell instead of running under the next label, at a word's end
        // where it can
        valueStyle={{ overflowWrap: 'break-word', wordBreak: 'break-word' }}
        data={[
          { label: t('approval.parameter'), value: <code>{a.parameter}</code> },
          { label: t('approval.stage'), value: <Tag color={stageColor[a.stage]}>{t(`approval.stage.${a.stage}`)}</Tag> },
          { label: t('approval.oldValue'), value: a.oldValue || '—' },
          { label: t('approval.newValue'), value: a.newValue },
          { label: t('approval.createBy'), value: a.createBy ?? '—' },
          { label: t('approval.createTime'), value: formatDateTime(a.createTime) },
          { label: t('approval.reason'), value: a.reason || '—', span: 2 },
        ]}
      />
      <Table<ApprovalRecord>
        style={{ marginTop: 16 }}
        rowKey="id"
        data-testid="approval-records"
        data={a.records}
        pagination={false}
        columns={[
          { title: t('approval.stage'), dataIndex: 'stage', render: (s: Approval['stage']) => t(`approval.stage.${s}`) },
          {
            title: t('approval.result'),
            dataIndex: 'result',
            render: (r: ApprovalRecord['result']) => <Tag color={resultColor[r]}>{t(`approval.result.${r}`)}</Tag>,
          },
          { title: t('approval.operator'), dataIndex: 'operator', render: (v: string | null) => v ?? '—' },
          { title: t('approval.time'), dataIndex: 'createTime', render: (v: string) => formatDateTime(v) },
          { title: t('approval.remark'), dataIndex: 'remark', render: (v: string) => v || '—' },
        ]}
      />
    </Card>
  );
}

const fields = ['title', 'parameter', 'oldValue', 'newValue', 'reason'] as const;

function CreateApproval({ visible, onClose }: { visible: boolean; onClose: (created?: number) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const client = useQueryClient();
  const label = (field: string) => t(`approval.${field === 'title' ? 'name' : field}`);
  const { validate, recheck, showServerErrors } = useSchemaForm(form, approvalInputSchema, { label });
  const create = useMutation({
    mutationFn: (body: unknown) => http.post<Approval>('/api/profile/approval', body, { silent: true }),
    onSuccess: (saved) => {
      client.setQueryData([...KEY, saved.id], saved);
      void client.invalidateQueries({ queryKey: [...KEY, 'list'] });
      Message.success(t('approval.created'));
      form.resetFields();
      onClose(saved.id);
    },
    onError: (error) => {
      if (!showServerErrors(error)) Message.error((error as Error).message);
    },
  });
  return (
    <Modal
      title={t('approval.new')}
      visible={visible}
      onCancel={() => onClose()}
      onOk={() => {
        const checked = validate();
        if (checked.ok) create.mutate(checked.data);
      }}
      confirmLoading={create.isPending}
      unmountOnExit
    >
      <Form form={form} layout="vertical" onValuesChange={(changed) => recheck(changed)} data-testid="approval-form">
        {fields.map((field) => (
          <Form.Item
            key={field}
            label={label(field)}
            field={field}
            required={field === 'title' || field === 'parameter' || field === 'newValue'}
          >
            {field === 'reason' ? (
              <Input.TextArea maxLength={500} showWordLimit />
            ) : (
              <Input maxLength={field === 'title' || field === 'parameter' ? 50 : 200} />
            )}
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
