import { Card, Form, Input, InputNumber } from '@arco-design/web-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api';
import { useCan } from '../../components/permission';
import {
  actionsColumn,
  CreateButton,
  DeleteAction,
  EditButton,
  EditModal,
  KeyNameFields,
  ListTable,
  type Project,
  useFormErrors,
  useList,
} from './shared';

type Editing = { id?: number; key: string; name: string; artifactSource: string; keepReleases: number };

/** Projects: what is released, from where, and how many releases are kept for rollback. */
export function ProjectPage() {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const projects = useList<Project>('project');
  const [editing, setEditing] = useState<Editing | null>(null);
  const errors = useFormErrors();
  const save = async () => {
    if (!editing) return;
    const body = { name: editing.name, artifactSource: editing.artifactSource || null, keepReleases: editing.keepReleases };
    await errors.submit(
      () =>
        editing.id
          ? http.put(`/api/release/project/${editing.id}`, body)
          : http.post('/api/release/project', { ...body, key: editing.key }),
      () => {
        setEditing(null);
        void client.invalidateQueries({ queryKey: ['release', 'project'] });
      },
    );
  };
  return (
    <Card title={t('menu.release.project')}>
      <CreateButton
        shown={can('release:project:create')}
        onClick={() => setEditing({ key: '', name: '', artifactSource: '', keepReleases: 5 })}
      />
      <ListTable
        list={projects}
        columns={[
          { title: t('release.key'), dataIndex: 'key' },
          { title: t('release.name'), dataIndex: 'name', phone: true },
          { title: t('release.artifactSource'), dataIndex: 'artifactSource', render: (v: string | null) => v ?? '—' },
          { title: t('release.keepReleases'), dataIndex: 'keepReleases' },
          ...actionsColumn(t('release.actions'), can('release:project:update') || can('release:project:delete'), (p: Project) => (
            <>
              {can('release:project:update') && <EditButton onClick={() => setEditing({ ...p, artifactSource: p.artifactSource ?? '' })} />}
              {can('release:project:delete') && <DeleteAction path="project" id={p.id} name={p.name} />}
            </>
          )),
        ]}
      />
      <EditModal editing={editing} onClose={() => setEditing(null)} onOk={save} errors={errors}>
        {(editing) => (
          <>
            <KeyNameFields value={editing} onChange={setEditing} errors={errors} />
            <Form.Item label={t('release.artifactSource')} {...errors.item('artifactSource')}>
              <Input value={editing.artifactSource} onChange={(artifactSource) => setEditing({ ...editing, artifactSource })} />
            </Form.Item>
            <Form.Item label={t('release.keepReleases')} {...errors.item('keepReleases')}>
              <InputNumber
                min={1}
                max={100}
                value={editing.keepReleases}
                onChange={(v) => setEditing({ ...editing, keepReleases: Number(v) || 5 })}
              />
            </Form.Item>
          </>
        )}
      </EditModal>
    </Card>
  );
}
