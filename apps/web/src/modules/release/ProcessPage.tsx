import { Button, Card, Form, Input, InputNumber, Select, Space, Tag } from '@arco-design/web-react';
import { IconDragDotVertical } from '@arco-design/web-react/icon';
import { processResource } from '@atrium/contracts/release-entities';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api';
import { useCan } from '../../components/permission';
import { SearchForm } from '../../crud/SearchForm';
import {
  type Ability,
  actionsColumn,
  CreateButton,
  DeleteAction,
  EditButton,
  EditModal,
  ListTable,
  type Process,
  type Project,
  paramsToText,
  textToParams,
  useFormErrors,
  useList,
  usePagedList,
} from './shared';

type EditStep = { uid: number; abilityId?: number; params: string; labels: string[]; timeoutSec: number | null; retries: number };
let uids = 0;
type Editing = { id?: number; name: string; projectId?: number; steps: EditStep[] };

/** Processes: a project's ordered steps, each a published ability with its parameters and target labels. */
export function ProcessPage() {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const processes = usePagedList<Process>('process');
  const projects = useList<Project>('project');
  const abilities = useList<Ability>('ability');
  const [editing, setEditing] = useState<Editing | null>(null);
  const errors = useFormErrors();
  // the step being dragged and the one it hovers: drop puts the first where the second is
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const abilityName = (id: number) => {
    const a = abilities.data?.list.find((x) => x.id === id);
    return a ? `${a.key}@v${a.version}` : `#${id}`;
  };
  const save = async () => {
    if (!editing) return;
    const steps = editing.steps.map((s) => ({
      abilityId: s.abilityId,
      params: textToParams(s.params),
      labels: s.labels,
      timeoutSec: s.timeoutSec,
      retries: s.retries,
    }));
    await errors.submit(
      () =>
        editing.id
          ? http.put(`/api/release/process/${editing.id}`, { name: editing.name, steps })
          : http.post('/api/release/process', { name: editing.name, projectId: editing.projectId, steps }),
      () => {
        setEditing(null);
        void client.invalidateQueries({ queryKey: ['release', 'process'] });
      },
    );
  };
  const setStep = (index: number, patch: Partial<EditStep>) =>
    editing && setEditing({ ...editing, steps: editing.steps.map((s, i) => (i === index ? { ...s, ...patch } : s)) });
  const moveTo = (from: number, to: number) => {
    if (!editing || from === to) return;
    const steps = [...editing.steps];
    const [step] = steps.splice(from, 1);
    if (step) steps.splice(to, 0, step);
    setEditing({ ...editing, steps });
  };
  const newStep = (): EditStep => ({ uid: uids++, params: '', labels: [], timeoutSec: null, retries: 0 });
  const published = (abilities.data?.list ?? []).filter((a) => a.status === 'PUBLISHED');
  return (
    <Card title={t('menu.release.process')}>
      <SearchForm
        fields={[
          {
            field: 'projectId',
            label: 'release.project',
            type: 'select',
            options: (projects.data?.list ?? []).map((p) => ({ label: `${p.name} (${p.key})`, value: p.id })),
          },
          { field: 'name', label: 'release.name' },
        ]}
        schema={processResource.filters}
        onSearch={processes.search}
      />
      <CreateButton shown={can('release:process:create')} onClick={() => setEditing({ name: '', steps: [newStep()] })} />
      <ListTable
        list={processes.list}
        pagination={processes.pagination}
        columns={[
          { title: t('release.name'), dataIndex: 'name', phone: true },
          {
            title: t('release.project'),
            dataIndex: 'projectId',
            render: (id: number) => projects.data?.list.find((p) => p.id === id)?.name ?? id,
          },
          {
            title: t('release.steps'),
            dataIndex: 'steps',
            render: (steps: Process['steps']) =>
              steps.map((s, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a read-only ordered list; a step's position is its identity here
                <Tag key={i}>
                  {i + 1}. {abilityName(s.abilityId)}
                </Tag>
              )),
          },
          ...actionsColumn(t('release.actions'), can('release:process:update') || can('release:process:delete'), (p: Process) => (
            <>
              {can('release:process:update') && (
                <EditButton
                  onClick={() =>
                    setEditing({
                      id: p.id,
                      name: p.name,
                      projectId: p.projectId,
                      steps: p.steps.map((s) => ({
                        uid: uids++,
                        abilityId: s.abilityId,
                        params: paramsToText(s.params),
                        labels: s.labels,
                        timeoutSec: s.timeoutSec ?? null,
                        retries: s.retries ?? 0,
                      })),
                    })
                  }
                />
              )}
              {can('release:process:delete') && <DeleteAction path="process" id={p.id} name={p.name} />}
            </>
          )),
        ]}
      />
      <EditModal editing={editing} onClose={() => setEditing(null)} onOk={save} errors={errors} width={820}>
        {(editing) => (
          <>
            <Form.Item label={t('release.name')} required {...errors.item('name')}>
              <Input value={editing.name} onChange={(name) => setEditing({ ...editing, name })} aria-label={t('release.name')} />
            </Form.Item>
            <Form.Item label={t('release.project')} required {...errors.item('projectId')}>
              <Select
                aria-label={t('release.project')}
                disabled={!!editing.id}
                value={editing.projectId}
                onChange={(projectId: number) => setEditing({ ...editing, projectId })}
                options={(projects.data?.list ?? []).map((p) => ({ label: `${p.name} (${p.key})`, value: p.id }))}
              />
            </Form.Item>
            <Form.Item label={t('release.steps')} {...errors.item('steps')}>
              {editing.steps.map((s, i) => (
                <Card
                  key={s.uid}
                  size="small"
                  className={`process-step${dragging === i ? ' is-dragging' : ''}${over === i && dragging !== i ? ' is-over' : ''}`}
                  data-testid={`process-step-${i + 1}`}
                  draggable
                  onDragStart={(event) => {
                    event.dataTransfer.effectAllowed = 'move';
                    setDragging(i);
                  }}
                  onDragOver={(event) => {
                    event.preventDefault();
                    if (over !== i) setOver(i);
                  }}
                  onDrop={(event) => {
                    event.preventDefault();
                    if (dragging !== null) moveTo(dragging, i);
                    setDragging(null);
                    setOver(null);
                  }}
                  onDragEnd={() => {
                    setDragging(null);
                    setOver(null);
                  }}
                  title={
                    <span className="process-step-title" title={t('release.dragHint')}>
                      <IconDragDotVertical className="process-step-handle" />
                      {i + 1}
                    </span>
                  }
                  extra={
                    <Space>
                      <Button size="mini" disabled={i === 0} onClick={() => moveTo(i, i - 1)}>
                        {t('release.moveUp')}
                      </Button>
                      <Button size="mini" disabled={i === editing.steps.length - 1} onClick={() => moveTo(i, i + 1)}>
                        {t('release.moveDown')}
                      </Button>
                      <Button
                        size="mini"
                        status="danger"
                        onClick={() => setEditing({ ...editing, steps: editing.steps.filter((_, j) => j !== i) })}
                      >
                        {t('release.remove')}
                      </Button>
                    </Space>
                  }
                >
                  <Space direction="vertical" style={{ width: '100%' }}>
                    <Select
                      aria-label={`${t('release.ability')} ${i + 1}`}
                      placeholder={t('release.ability')}
                      value={s.abilityId}
                      onChange={(abilityId: number) => setStep(i, { abilityId })}
                      options={published.map((a) => ({ label: `${a.name} — ${a.key}@v${a.version}`, value: a.id }))}
                    />
                    <Input.TextArea
                      placeholder={t('release.params')}
                      value={s.params}
                      onChange={(params) => setStep(i, { params })}
                      autoSize={{ minRows: 2, maxRows: 6 }}
                      style={{ fontFamily: 'ui-monospace, monospace' }}
                    />
                    <Select
                      mode="multiple"
                      allowCreate
                      placeholder={t('release.labels')}
                      value={s.labels}
                      onChange={(labels: string[]) => setStep(i, { labels })}
                    />
                    <Space>
                      <InputNumber
                        aria-label={`${t('release.stepTimeout')} ${i + 1}`}
                        prefix={t('release.stepTimeout')}
                        placeholder={t('release.stepTimeoutDefault')}
                        min={1}
                        max={86400}
                        precision={0}
                        value={s.timeoutSec ?? undefined}
                        onChange={(v) => setStep(i, { timeoutSec: v ? Number(v) : null })}
                        style={{ width: 260 }}
                      />
                      <InputNumber
                        aria-label={`${t('release.retries')} ${i + 1}`}
                        prefix={t('release.retries')}
                        min={0}
                        max={5}
                        precision={0}
                        value={s.retries}
                        onChange={(v) => setStep(i, { retries: Number(v) || 0 })}
                        style={{ width: 180 }}
                      />
                    </Space>
                  </Space>
                </Card>
              ))}
              <Button size="small" onClick={() => setEditing({ ...editing, steps: [...editing.steps, newStep()] })}>
                {t('release.addStep')}
              </Button>
            </Form.Item>
          </>
        )}
      </EditModal>
    </Card>
  );
}
