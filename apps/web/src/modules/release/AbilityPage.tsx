import { Alert, Button, Card, Drawer, Form, InputNumber, List, Space, Typography } from '@arco-design/web-react';
import { codeOptions } from '@atrium/contracts/labels';
import { abilityResource } from '@atrium/contracts/release-entities';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api';
import { CodeEditor } from '../../components/code/CodeEditor';
import { useCan } from '../../components/permission';
import { SearchForm } from '../../crud/SearchForm';
import { formatDateTime } from '../../locale/datetime';
import {
  type Ability,
  attempt,
  CreateButton,
  EditButton,
  EditModal,
  KeyNameFields,
  type Listed,
  ListTable,
  RowActions,
  StatusTag,
  useFormErrors,
  usePagedList,
} from './shared';
import { stepNames, unsetVariables, VARIABLE_PREFIX } from './step-variables';

/**
 * The environment a step runs with, as the agent builds it (release-env), under the editor: the names
 * it sets, how parameters and variables arrive, and the names the script reads that nothing sets.
 */
function StepVariables({ body }: { body: string }) {
  const { t } = useTranslation();
  const unset = unsetVariables(body);
  return (
    <div className="step-variables" data-testid="step-variables">
      <Typography.Text type="secondary">{t('release.bodyHint')}</Typography.Text>
      <dl>
        {stepNames.map((name) => (
          <div key={name}>
            <dt>
              <code>${name}</code>
            </dt>
            <dd>{t(`release.stepVar.${name}`)}</dd>
          </div>
        ))}
        <div>
          <dt>
            <code>${VARIABLE_PREFIX}NAME</code>
          </dt>
          <dd>{t('release.stepVar.prefixed')}</dd>
        </div>
      </dl>
      {unset.length > 0 && (
        <div role="status">
          <Alert type="warning" content={t('release.stepVar.unset', { names: unset.map((n) => `$${n}`).join(', '), example: unset[0] })} />
        </div>
      )}
    </div>
  );
}

type Editing = { id?: number; key: string; name: string; body: string; timeoutSec: number };

/** Abilities: versioned shell step templates. A published version is frozen; "new version" starts the next draft. */
export function AbilityPage() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const abilities = usePagedList<Ability>('ability');
  const [editing, setEditing] = useState<Editing | null>(null);
  const errors = useFormErrors();
  // the key whose versions the history drawer shows, and the version opened in it
  const [history, setHistory] = useState<{ key: string; id: number } | null>(null);
  const versions =
    useQuery({
      queryKey: ['release', 'ability', 'versions', history?.key],
      // the key matches from the start, and its own versions sort before a longer key's
      queryFn: () => http.get<Listed<Ability>>('/api/release/ability', { params: { key: history?.key, sort: 'key:asc', pageSize: 200 } }),
      enabled: !!history,
    })
      .data?.list.filter((a) => a.key === history?.key)
      .sort((a, b) => b.version - a.version) ?? [];
  const shown = versions.find((a) => a.id === history?.id) ?? versions[0];
  const refresh = () => client.invalidateQueries({ queryKey: ['release', 'ability'] });
  const save = async () => {
    if (!editing) return;
    const body = { name: editing.name, runtime: 'shell', body: editing.body, timeoutSec: editing.timeoutSec };
    await errors.submit(
      () =>
        editing.id
          ? http.put(`/api/release/ability/${editing.id}`, body)
          : http.post('/api/release/ability', { ...body, key: editing.key }),
      () => {
        setEditing(null);
        void refresh();
      },
    );
  };
  const transition = (a: Ability, action: 'publish' | 'deprecate') =>
    attempt(() => http.put(`/api/release/ability/${a.id}/${action}`), refresh);
  return (
    <Card title={t('menu.release.ability')}>
      <SearchForm
        fields={[
          { field: 'key', label: 'release.key', match: 'prefix' },
          { field: 'name', label: 'release.name' },
          { field: 'status', label: 'release.status', type: 'select', options: codeOptions('abilityStatus', i18n.language) },
        ]}
        schema={abilityResource.filters}
        onSearch={abilities.search}
      />
      <CreateButton
        shown={can('release:ability:create')}
        onClick={() => setEditing({ key: '', name: '', body: '#!/bin/sh\nset -eu\n', timeoutSec: 600 })}
      />
      <ListTable
        list={abilities.list}
        pagination={abilities.pagination}
        columns={[
          { title: t('release.key'), dataIndex: 'key', phone: true },
          { title: t('release.version'), dataIndex: 'version', render: (v: number) => `v${v}` },
          { title: t('release.name'), dataIndex: 'name' },
          {
            title: t('release.status'),
            dataIndex: 'status',
            render: (s: string) => <StatusTag kind="abilityStatus" value={s} />,
            phone: true,
          },
          { title: t('release.sha256'), dataIndex: 'sha256', render: (s: string) => <code>{s.slice(0, 12)}</code> },
          {
            title: t('release.actions'),
            phone: true,
            render: (_: unknown, a: Ability) => (
              <RowActions>
                {a.status === 'DRAFT' && can('release:ability:update') && (
                  <EditButton onClick={() => setEditing({ id: a.id, key: a.key, name: a.name, body: a.body, timeoutSec: a.timeoutSec })} />
                )}
                {a.status === 'DRAFT' && can('release:ability:publish') && (
                  <Button size="mini" type="primary" onClick={() => transition(a, 'publish')}>
                    {t('release.publish')}
                  </Button>
                )}
                {a.status === 'PUBLISHED' && can('release:ability:deprecate') && (
                  <Button size="mini" onClick={() => transition(a, 'deprecate')}>
                    {t('release.deprecate')}
                  </Button>
                )}
                {can('release:ability:create') && (
                  <Button size="mini" onClick={() => setEditing({ key: a.key, name: a.name, body: a.body, timeoutSec: a.timeoutSec })}>
                    {t('release.newVersion')}
                  </Button>
                )}
                <Button size="mini" type="text" onClick={() => setHistory({ key: a.key, id: a.id })}>
                  {t('release.history')}
                </Button>
              </RowActions>
            ),
          },
        ]}
      />
      <EditModal editing={editing} onClose={() => setEditing(null)} onOk={save} errors={errors} width={760}>
        {(editing) => (
          <>
            <KeyNameFields value={editing} onChange={setEditing} errors={errors} />
            <Form.Item label={t('release.timeoutSec')} {...errors.item('timeoutSec')}>
              <InputNumber min={1} value={editing.timeoutSec} onChange={(v) => setEditing({ ...editing, timeoutSec: Number(v) || 600 })} />
            </Form.Item>
            <Form.Item label={t('release.body')} required {...errors.item('body')}>
              <CodeEditor label={t('release.body')} value={editing.body} onChange={(body) => setEditing({ ...editing, body })} />
            </Form.Item>
            <StepVariables body={editing.body} />
          </>
        )}
      </EditModal>
      <Drawer
        visible={!!history}
        width={880}
        title={t('release.historyOf', { key: history?.key ?? '' })}
        onCancel={() => setHistory(null)}
        footer={null}
        unmountOnExit
      >
        <div className="ability-history">
          <List
            size="small"
            dataSource={versions}
            render={(a: Ability) => (
              <List.Item
                key={a.id}
                className={a.id === shown?.id ? 'is-selected' : undefined}
                onClick={() => history && setHistory({ ...history, id: a.id })}
                data-testid={`ability-version-${a.version}`}
              >
                <Space direction="vertical" size={2}>
                  <Space>
                    <b>v{a.version}</b>
                    <StatusTag kind="abilityStatus" value={a.status} />
                  </Space>
                  <Typography.Text type="secondary">
                    {a.createTime ? formatDateTime(a.createTime) : ''} {a.createBy ?? ''}
                  </Typography.Text>
                  <code>{a.sha256.slice(0, 12)}</code>
                </Space>
              </List.Item>
            )}
          />
          {shown && (
            <div>
              <Typography.Paragraph>
                {shown.name} · {t('release.timeoutSec')} {shown.timeoutSec}
              </Typography.Paragraph>
              <CodeEditor label={`${t('release.body')} v${shown.version}`} value={shown.body} readOnly maxHeight={640} />
            </div>
          )}
        </div>
      </Drawer>
    </Card>
  );
}
