import {
  Button,
  Card,
  Descriptions,
  Drawer,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { fieldMessage } from '@atrium/contracts/errors';
import { taskStatuses } from '@atrium/contracts/release';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { http } from '../../api';
import { useCan } from '../../components/permission';
import { formatDateTime } from '../../locale/datetime';
import { onRealtime } from '../../realtime/events';
import { useIsPhone } from '../../shell/useIsPhone';
import {
  attempt,
  type Client,
  EmptyList,
  type Env,
  forScreen,
  type Listed,
  type Process,
  type Project,
  StatusTag,
  type StepRun,
  type Task,
  useFormErrors,
  useList,
} from './shared';

type Draft = { projectId?: number; envId?: number; processId?: number; version: string };
type Filters = { projectId?: number; envId?: number; status?: string; pageNum: number };
const PAGE_SIZE = 20;
const FINISHED = ['SUCCEEDED', 'FAILED', 'PARTIAL', 'CANCELED', 'TIMED_OUT', 'LOST', 'REJECTED'];

/** Tasks: start a release, approve it on a protected environment, follow its log live, cancel it. */
export function TaskPage() {
  const phone = useIsPhone();
  const { t } = useTranslation();
  const client = useQueryClient();
  const [filters, setFilters] = useState<Filters>({ pageNum: 1 });
  // newest first, a page at a time (the server keeps to the caller's grants)
  const tasks = useQuery({
    queryKey: ['release', 'task', 'list', filters],
    queryFn: () => http.get<Listed<Task>>('/api/release/task', { params: { ...filters, pageSize: PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });
  const filter = (patch: Partial<Filters>) => setFilters({ ...filters, ...patch, pageNum: 1 });
  const projects = useList<Project>('project');
  const envs = useList<Env>('env');
  const processes = useList<Process>('process');
  const [draft, setDraft] = useState<Draft | null>(null);
  const errors = useFormErrors();
  const [search, setSearch] = useSearchParams();
  const openId = Number(search.get('id')) || null;
  const refresh = () => client.invalidateQueries({ queryKey: ['release', 'task'] });
  useEffect(
    () =>
      onRealtime('task', (message) => {
        if (message.domain === 'release' && message.event === 'status') void client.invalidateQueries({ queryKey: ['release', 'task'] });
      }),
    [client],
  );
  const name = <T extends { id: number; name: string }>(list: T[] | undefined, id: number) =>
    list?.find((x) => x.id === id)?.name ?? `#${id}`;
  const create = async () => {
    if (!draft) return;
    await errors.submit(
      () => http.post<Task>('/api/release/task', draft),
      () => {
        setDraft(null);
        void refresh();
      },
    );
  };
  return (
    <Card title={t('menu.release.task')}>
      <Space wrap style={{ marginBottom: 12 }}>
        {/* a release is started from a project the caller can see */}
        {projects.data && (
          <Button type="primary" onClick={() => setDraft({ version: '' })}>
            {t('release.newTask')}
          </Button>
        )}
        <Select
          allowClear
          aria-label={t('release.project')}
          placeholder={t('release.allProjects')}
          style={{ width: 180 }}
          value={filters.projectId}
          onChange={(projectId?: number) => filter({ projectId })}
          options={(projects.data?.list ?? []).map((p) => ({ label: p.name, value: p.id }))}
        />
        <Select
          allowClear
          aria-label={t('release.env')}
          placeholder={t('release.allEnvs')}
          style={{ width: 160 }}
          value={filters.envId}
          onChange={(envId?: number) => filter({ envId })}
          options={(envs.data?.list ?? []).map((e) => ({ label: e.name, value: e.id }))}
        />
        <Select
          allowClear
          aria-label={t('release.status')}
          placeholder={t('release.allStatuses')}
          style={{ width: 200 }}
          value={filters.status}
          onChange={(status?: string) => filter({ status })}
          options={taskStatuses.map((status) => ({ label: <StatusTag kind="taskStatus" value={status} />, value: status }))}
        />
      </Space>
      <Table
        rowKey="id"
        loading={tasks.isFetching}
        noDataElement={<EmptyList error={tasks.error} />}
        data={tasks.data?.list ?? []}
        pagination={{
          total: tasks.data?.total ?? 0,
          current: filters.pageNum,
          pageSize: PAGE_SIZE,
          onChange: (pageNum: number) => setFilters({ ...filters, pageNum }),
          showTotal: true,
          size: 'small',
        }}
        onRow={(task: Task) => ({ onClick: () => setSearch({ id: String(task.id) }) })}
        columns={forScreen(phone, [
          { title: 'ID', dataIndex: 'id' },
          {
            title: t('release.project'),
            dataIndex: 'projectId',
            phone: true,
            render: (id: number, task: Task) => task.projectName ?? name(projects.data?.list, id),
          },
          { title: t('release.env'), dataIndex: 'envId', render: (id: number, task: Task) => task.envName ?? name(envs.data?.list, id) },
          { title: t('release.version'), dataIndex: 'version' },
          {
            title: t('release.status'),
            dataIndex: 'status',
            render: (s: string) => <StatusTag kind="taskStatus" value={s} />,
            phone: true,
          },
          { title: t('release.createBy'), dataIndex: 'createBy' },
          { title: t('release.startedAt'), dataIndex: 'startedAt', render: (v: string | null) => (v ? formatDateTime(v) : '—') },
        ])}
      />
      <Modal
        visible={!!draft}
        title={t('release.newTask')}
        onCancel={() => {
          setDraft(null);
          errors.clear();
        }}
        onOk={create}
        unmountOnExit
      >
        {draft && (
          <Form layout="vertical">
            <Form.Item label={t('release.project')} required {...errors.item('projectId')}>
              <Select
                aria-label={t('release.project')}
                value={draft.projectId}
                onChange={(projectId: number) => setDraft({ ...draft, projectId, processId: undefined })}
                options={(projects.data?.list ?? []).map((p) => ({ label: p.name, value: p.id }))}
              />
            </Form.Item>
            <Form.Item label={t('release.env')} required {...errors.item('envId')}>
              <Select
                aria-label={t('release.env')}
                value={draft.envId}
                onChange={(envId: number) => setDraft({ ...draft, envId })}
                options={(envs.data?.list ?? []).map((e) => ({ label: e.name, value: e.id }))}
              />
            </Form.Item>
            <Form.Item label={t('release.process')} required {...errors.item('processId')}>
              <Select
                aria-label={t('release.process')}
                value={draft.processId}
                onChange={(processId: number) => setDraft({ ...draft, processId })}
                options={(processes.data?.list ?? [])
                  .filter((p) => p.projectId === draft.projectId)
                  .map((p) => ({ label: p.name, value: p.id }))}
              />
            </Form.Item>
            <Form.Item label={t('release.version')} required {...errors.item('version')}>
              <Input aria-label={t('release.version')} value={draft.version} onChange={(version) => setDraft({ ...draft, version })} />
            </Form.Item>
          </Form>
        )}
      </Modal>
      <Drawer
        width={760}
        visible={!!openId}
        title={`${t('release.task')} #${openId ?? ''}`}
        footer={null}
        onCancel={() => setSearch({})}
        unmountOnExit
      >
        {openId && <TaskDetail id={openId} onChanged={refresh} />}
      </Drawer>
    </Card>
  );
}

/** One task: its steps and runs, the log (live while it runs, whole afterwards), cancel and approval. */
function TaskDetail({ id, onChanged }: { id: number; onChanged: () => void }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const task = useQuery({ queryKey: ['release', 'task', id], queryFn: () => http.get<Task>(`/api/release/task/${id}`) });
  const [log, setLog] = useState('');
  const seen = useRef(new Set<string>());
  const logBox = useRef<HTMLPreElement>(null);
  const status = task.data?.status;
  useEffect(() => {
    const stop = onRealtime('task', (message) => {
      if (message.domain !== 'release' || message.taskId !== id) return;
      if (message.event === 'log') {
        const key = `${String(message.stepRunId)}:${String(message.seq)}`;
        if (seen.current.has(key)) return;
        seen.current.add(key);
        setLog((text) => text + String(message.text ?? ''));
      } else void client.invalidateQueries({ queryKey: ['release', 'task', id] });
    });
    return stop;
  }, [id, client]);
  useEffect(() => {
    // the stored log is the truth: loaded at open and again once the task has finished
    if (
      !status ||
      (status !== 'RUNNING' && status !== 'CANCELLING' && !FINISHED.includes(status)) ||
      (status === 'RUNNING' && seen.current.size > 0)
    )
      return;
    void http.get<{ text: string }>(`/api/release/task/${id}/log`, { params: { format: 'json' }, silent: true }).then(
      (answer) => setLog((text) => (answer.text.length >= text.length ? answer.text : text)),
      () => {},
    );
  }, [id, status]);
  // follows the end of the log as it grows
  const logLength = log.length;
  useEffect(() => {
    if (logBox.current && logLength > 0) logBox.current.scrollTop = logBox.current.scrollHeight;
  }, [logLength]);
  const act = (action: 'cancel' | 'approve' | 'reject' | 'force-release') =>
    attempt(
      () => http.put(`/api/release/task/${id}/${action}`),
      () => {
        void client.invalidateQueries({ queryKey: ['release', 'task', id] });
        onChanged();
      },
    );
  const [, setSearch] = useSearchParams();
  // retry and rollback start a new task: the drawer moves on to it
  const again = (action: 'retry' | 'rollback') =>
    attempt(async () => {
      const created = await http.post<Task>(`/api/release/task/${id}/${action}`);
      onChanged();
      setSearch({ id: String(created.id) });
    });
  const can = useCan();
  const clients = useList<Client>('client', can('release:client:list'));
  const data = task.data;
  if (!data) return null;
  const runs = data.stepRuns ?? [];
  const hosts = data.targets?.length ? data.targets : data.clientId ? [data.clientId] : [];
  const hostName = (id: number) => data.hostNames?.[id] ?? clients.data?.list.find((c) => c.id === id)?.hostname ?? `#${id}`;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="medium">
      <Descriptions
        column={2}
        data={[
          { label: t('release.project'), value: data.projectName ?? `#${data.projectId}` },
          { label: t('release.env'), value: data.envName ?? `#${data.envId}` },
          { label: t('release.process'), value: data.processName ?? `#${data.processId}` },
          { label: t('release.status'), value: <StatusTag kind="taskStatus" value={data.status} /> },
          { label: t('release.version'), value: data.version },
          { label: t('release.exitCode'), value: data.exitCode ?? '—' },
          { label: t('release.hosts'), value: hosts.length ? hosts.map(hostName).join(', ') : '—' },
          { label: t('release.startedAt'), value: data.startedAt ? formatDateTime(data.startedAt) : '—' },
          { label: t('release.finishedAt'), value: data.finishedAt ? formatDateTime(data.finishedAt) : '—' },
        ]}
      />
      <Space>
        {data.status === 'PENDING_APPROVAL' && (
          <>
            <Button
              type="primary"
              disabled={!!data.approveRefusal}
              aria-describedby={data.approveRefusal ? 'approve-refusal' : undefined}
              onClick={() => act('approve')}
            >
              {t('release.approve')}
            </Button>
            <Button onClick={() => act('reject')}>{t('release.reject')}</Button>
          </>
        )}
        {['PENDING_APPROVAL', 'QUEUED', 'RUNNING'].includes(data.status) && (
          <Popconfirm
            title={t('release.cancelConfirm')}
            okText={t('release.cancelTask')}
            cancelText={t('release.keepTask')}
            okButtonProps={{ status: 'danger' }}
            onOk={() => act('cancel')}
          >
            <Button status="danger">{t('release.cancelTask')}</Button>
          </Popconfirm>
        )}
        {['RUNNING', 'CANCELLING'].includes(data.status) && (
          <Popconfirm
            title={t('release.forceReleaseConfirm')}
            okText={t('release.forceRelease')}
            cancelText={t('release.keepTask')}
            okButtonProps={{ status: 'danger' }}
            onOk={() => act('force-release')}
          >
            <Button>{t('release.forceRelease')}</Button>
          </Popconfirm>
        )}
        {['FAILED', 'PARTIAL', 'TIMED_OUT', 'LOST', 'CANCELED'].includes(data.status) && (
          <Button onClick={() => again('retry')}>{t('release.retry')}</Button>
        )}
        {data.status === 'SUCCEEDED' && <Button onClick={() => again('rollback')}>{t('release.rollback')}</Button>}
      </Space>
      {data.status === 'PENDING_APPROVAL' && data.approveRefusal ? (
        <Typography.Text type="secondary" id="approve-refusal">
          {fieldMessage(data.approveRefusal, i18n.language === 'en-US' ? 'en-US' : 'zh-CN')}
        </Typography.Text>
      ) : null}
      <Table
        rowKey="host"
        size="small"
        pagination={false}
        scroll={{ x: true }}
        data-testid="release-hosts"
        noDataElement={<span>{t('release.noHostsYet')}</span>}
        data={hosts.map((host) => ({ host }))}
        columns={[
          { title: t('release.client'), dataIndex: 'host', render: (host: number) => hostName(host) },
          ...data.steps.map((step, index) => ({
            title: `${index + 1}. ${step.name} (${step.abilityKey}@v${step.abilityVersion})`,
            key: `step-${index}`,
            render: (_: unknown, row: { host: number }) => {
              // every attempt of this step on this host; the last one says where it stands
              const attempts = runs.filter((r: StepRun) => r.clientId === row.host && r.stepIndex === index);
              const last = attempts.at(-1);
              if (!last) return <Tag>—</Tag>;
              return (
                <Space size={4}>
                  <StatusTag kind="taskStatus" value={last.status} />
                  {last.exitCode !== null && last.exitCode !== 0 && <span>{t('release.exit', { code: last.exitCode })}</span>}
                  {attempts.length > 1 && <span>{t('release.attempts', { count: attempts.length })}</span>}
                </Space>
              );
            },
          })),
        ]}
      />
      <div>
        <div style={{ marginBottom: 4 }}>{status === 'RUNNING' ? t('release.liveLog') : t('release.log')}</div>
        <pre
          ref={logBox}
          data-testid="release-log"
          style={{
            background: 'var(--color-fill-2)',
            color: 'var(--color-text-1)',
            padding: 12,
            maxHeight: 420,
            overflow: 'auto',
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            fontSize: 12,
            whiteSpace: 'pre-wrap',
            margin: 0,
          }}
        >
          {log || t('release.noLog')}
        </pre>
      </div>
    </Space>
  );
}
