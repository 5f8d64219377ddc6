import { Button, Card, Checkbox, Form, Input, InputNumber, Space, Switch, Tag } from '@arco-design/web-react';
import { envResource } from '@atrium/contracts/release-entities';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api';
import { useCan } from '../../components/permission';
import { SearchForm } from '../../crud/SearchForm';
import {
  actionsColumn,
  CreateButton,
  DeleteAction,
  EditButton,
  EditModal,
  type Env,
  KeyNameFields,
  ListTable,
  useFormErrors,
  usePagedList,
  type Variable,
} from './shared';

type Editing = {
  id?: number;
  key: string;
  name: string;
  protected: boolean;
  requiredApprovals: number;
  variables: (Variable & { kept?: boolean; uid: number })[];
};
let uids = 0;

/** Environments: a secret variable is write-only — it shows as stored, and is sent again only when retyped. */
export function EnvPage() {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const envs = usePagedList<Env>('env');
  const [editing, setEditing] = useState<Editing | null>(null);
  const errors = useFormErrors();
  const save = async () => {
    if (!editing) return;
    const variables = editing.variables.map((v) =>
      v.kept && !v.value ? { name: v.name, secret: true } : { name: v.name, value: v.value ?? '', secret: v.secret },
    );
    const body = { name: editing.name, protected: editing.protected, requiredApprovals: editing.requiredApprovals, variables };
    await errors.submit(
      () => (editing.id ? http.put(`/api/release/env/${editing.id}`, body) : http.post('/api/release/env', { ...body, key: editing.key })),
      () => {
        setEditing(null);
        void client.invalidateQueries({ queryKey: ['release', 'env'] });
      },
    );
  };
  const setVariable = (index: number, patch: Partial<Variable>) =>
    editing && setEditing({ ...editing, variables: editing.variables.map((v, i) => (i === index ? { ...v, ...patch } : v)) });
  return (
    <Card title={t('menu.release.env')}>
      <SearchForm
        fields={[
          { field: 'key', label: 'release.key' },
          { field: 'name', label: 'release.name' },
        ]}
        schema={envResource.filters}
        onSearch={envs.search}
      />
      <CreateButton
        shown={can('release:env:create')}
        onClick={() => setEditing({ key: '', name: '', protected: false, requiredApprovals: 1, variables: [] })}
      />
      <ListTable
        list={envs.list}
        pagination={envs.pagination}
        columns={[
          { title: t('release.key'), dataIndex: 'key' },
          { title: t('release.name'), dataIndex: 'name', phone: true },
          {
            title: t('release.protected'),
            phone: true,
            dataIndex: 'protected',
            render: (p: boolean) => (p ? <Tag color="orange">{t('release.protected')}</Tag> : '—'),
          },
          { title: t('release.requiredApprovals'), dataIndex: 'requiredApprovals' },
          {
            title: t('release.variables'),
            dataIndex: 'variables',
            render: (vars: Variable[]) =>
              vars.map((v) => <Tag key={v.name}>{v.secret ? `${v.name} (${t('release.secret')})` : `${v.name}=${v.value}`}</Tag>),
          },
          ...actionsColumn(t('release.actions'), can('release:env:update') || can('release:env:delete'), (e: Env) => (
            <>
              {can('release:env:update') && (
                <EditButton
                  onClick={() =>
                    setEditing({
                      ...e,
                      variables: e.variables.map((v) => ({ ...v, value: v.secret ? '' : v.value, kept: v.secret, uid: uids++ })),
                    })
                  }
                />
              )}
              {can('release:env:delete') && <DeleteAction path="env" id={e.id} name={e.name} />}
            </>
          )),
        ]}
      />
      <EditModal editing={editing} onClose={() => setEditing(null)} onOk={save} errors={errors} width={720}>
        {(editing) => (
          <>
            <KeyNameFields value={editing} onChange={setEditing} errors={errors} />
            <Space size="large">
              <Form.Item label={t('release.protected')}>
                <Switch checked={editing.protected} onChange={(p) => setEditing({ ...editing, protected: p })} />
              </Form.Item>
              <Form.Item label={t('release.requiredApprovals')} {...errors.item('requiredApprovals')}>
                <InputNumber
                  min={1}
                  max={10}
                  value={editing.requiredApprovals}
                  onChange={(v) => setEditing({ ...editing, requiredApprovals: Number(v) || 1 })}
                />
              </Form.Item>
            </Space>
            <Form.Item label={t('release.variables')} {...errors.item('variables')}>
              {editing.variables.map((v, i) => (
                <Space key={v.uid} style={{ display: 'flex', marginBottom: 8 }}>
                  <Input style={{ width: 180 }} placeholder="NAME" value={v.name} onChange={(name) => setVariable(i, { name })} />
                  <Input
                    style={{ width: 260 }}
                    type={v.secret ? 'password' : 'text'}
                    placeholder={v.kept ? t('release.secretKept') : ''}
                    value={v.value ?? ''}
                    onChange={(value) => setVariable(i, { value })}
                  />
                  <Checkbox checked={v.secret} disabled={v.kept} onChange={(secret) => setVariable(i, { secret })}>
                    {t('release.secret')}
                  </Checkbox>
                  <Button size="mini" onClick={() => setEditing({ ...editing, variables: editing.variables.filter((_, j) => j !== i) })}>
                    {t('release.remove')}
                  </Button>
                </Space>
              ))}
              <Button
                size="small"
                onClick={() =>
                  setEditing({ ...editing, variables: [...editing.variables, { name: '', value: '', secret: false, uid: uids++ }] })
                }
              >
                {t('release.addVariable')}
              </Button>
            </Form.Item>
          </>
        )}
      </EditModal>
    </Card>
  );
}
