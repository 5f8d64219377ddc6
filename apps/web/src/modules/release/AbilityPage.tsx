import { Button, Card, Form, Input, InputNumber, Modal, Space, Table } from '@arco-design/web-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api';
import { type Ability, attempt, StatusTag, useList } from './shared';

type Editing = { id?: number; key: string; name: string; body: string; timeoutSec: number };

/** Abilities: versioned shell step templates. A published version is frozen; "new version" starts the next draft. */
export function AbilityPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const abilities = useList<Ability>('ability');
  const [editing, setEditing] = useState<Editing | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['release', 'ability'] });
  const save = async () => {
    if (!editing) return;
    const body = { name: editing.name, runtime: 'shell', body: editing.body, timeoutSec: editing.timeoutSec };
    await attempt(
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
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" onClick={() => setEditing({ key: '', name: '', body: '#!/bin/sh\nset -eu\n', timeoutSec: 600 })}>
          {t('release.create')}
        </Button>
      </Space>
      <Table
        rowKey="id"
        loading={abilities.isLoading}
        data={abilities.data?.list ?? []}
        pagination={false}
        columns={[
          { title: t('release.key'), dataIndex: 'key' },
          { title: t('release.version'), dataIndex: 'version', render: (v: number) => `v${v}` },
          { title: t('release.name'), dataIndex: 'name' },
          { title: t('release.status'), dataIndex: 'status', render: (s: string) => <StatusTag value={s} /> },
          { title: t('release.sha256'), dataIndex: 'sha256', render: (s: string) => <code>{s.slice(0, 12)}</code> },
          {
            title: t('release.actions'),
            render: (_: unknown, a: Ability) => (
              <Space>
                {a.status === 'DRAFT' && (
                  <>
                    <Button
                      size="mini"
                      onClick={() => setEditing({ id: a.id, key: a.key, name: a.name, body: a.body, timeoutSec: a.timeoutSec })}
                    >
                      {t('release.edit')}
                    </Button>
                    <Button size="mini" type="primary" onClick={() => transition(a, 'publish')}>
                      {t('release.publish')}
                    </Button>
                  </>
                )}
                {a.status === 'PUBLISHED' && (
                  <Button size="mini" onClick={() => transition(a, 'deprecate')}>
                    {t('release.deprecate')}
                  </Button>
                )}
                <Button size="mini" onClick={() => setEditing({ key: a.key, name: a.name, body: a.body, timeoutSec: a.timeoutSec })}>
                  {t('release.newVersion')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        visible={!!editing}
        title={editing?.id ? t('release.edit') : t('release.create')}
        onCancel={() => setEditing(null)}
        onOk={save}
        style={{ width: 760 }}
        unmountOnExit
      >
        {editing && (
          <Form layout="vertical">
            <Form.Item label={t('release.key')} required>
              <Input
                value={editing.key}
                disabled={!!editing.id}
                onChange={(key) => setEditing({ ...editing, key })}
                aria-label={t('release.key')}
              />
            </Form.Item>
            <Form.Item label={t('release.name')} required>
              <Input value={editing.name} onChange={(name) => setEditing({ ...editing, name })} aria-label={t('release.name')} />
            </Form.Item>
            <Form.Item label={t('release.timeoutSec')}>
              <InputNumber min={1} value={editing.timeoutSec} onChange={(v) => setEditing({ ...editing, timeoutSec: Number(v) || 600 })} />
            </Form.Item>
            <Form.Item label={t('release.body')} extra={t('release.bodyHint')} required>
              <Input.TextArea
                aria-label={t('release.body')}
                value={editing.body}
                onChange={(body) => setEditing({ ...editing, body })}
                autoSize={{ minRows: 10, maxRows: 24 }}
                spellCheck={false}
                style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 }}
              />
            </Form.Item>
          </Form>
        )}
      </Modal>
    </Card>
  );
}
