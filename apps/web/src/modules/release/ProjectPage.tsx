import { Button, Card, Form, Input, InputNumber, Modal, Space, Table } from '@arco-design/web-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api';
import { useCan } from '../../components/permission';
import { useIsPhone } from '../../shell/useIsPhone';
import { DeleteAction, EmptyList, forScreen, KeyNameFields, type Project, RowActions, useFormErrors, useList } from './shared';

type Editing = { id?: number; key: string; name: string; artifactSource: string; keepReleases: number };

/** Projects: what is released, from where, and how many releases are kept for rollback. */
export function ProjectPage() {
  const phone = useIsPhone();
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
      {can('release:project:create') && (
        <Space style={{ marginBottom: 12 }}>
          <Button type="primary" onClick={() => setEditing({ key: '', name: '', artifactSource: '', keepReleases: 5 })}>
            {t('release.create')}
          </Button>
        </Space>
      )}
      <Table
        rowKey="id"
        loading={projects.isLoading}
        noDataElement={<EmptyList error={projects.error} />}
        data={projects.data?.list ?? []}
        pagination={false}
        columns={forScreen(phone, [
          { title: t('release.key'), dataIndex: 'key' },
          { title: t('release.name'), dataIndex: 'name', phone: true },
          { title: t('release.artifactSource'), dataIndex: 'artifactSource', render: (v: string | null) => v ?? '—' },
          { title: t('release.keepReleases'), dataIndex: 'keepReleases' },
          // a reader gets no actions column: it would stay empty
          ...(can('release:project:update') || can('release:project:delete')
            ? [
                {
                  title: t('release.actions'),
                  phone: true,
                  render: (_: unknown, p: Project) => (
                    <RowActions>
                      {can('release:project:update') && (
                        <Button size="mini" onClick={() => setEditing({ ...p, artifactSource: p.artifactSource ?? '' })}>
                          {t('release.edit')}
                        </Button>
                      )}
                      {can('release:project:delete') && <DeleteAction path="project" id={p.id} name={p.name} />}
                    </RowActions>
                  ),
                },
              ]
            : []),
        ])}
      />
      <Modal
        visible={!!editing}
        title={t(editing?.id ? 'release.edit' : 'release.create')}
        onCancel={() => {
          setEditing(null);
          errors.clear();
        }}
        onOk={save}
        unmountOnExit
      >
        {editing && (
          <Form layout="vertical">
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
          </Form>
        )}
      </Modal>
    </Card>
  );
}
