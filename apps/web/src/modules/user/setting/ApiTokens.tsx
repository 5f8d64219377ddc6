import {
  Alert,
  Button,
  Checkbox,
  DatePicker,
  Form,
  Input,
  Message,
  Modal,
  Popconfirm,
  Popover,
  Table,
  Tag,
  Typography,
} from '@arco-design/web-react';
import {
  API_TOKEN_MAX_DAYS,
  API_TOKEN_NAME_MAX,
  type ApiToken,
  type CreatedApiToken,
  createApiTokenInputSchema,
} from '@atrium/contracts/api-token';
import { ALL_PERMISSIONS, allPermissions, isPlatformPermission } from '@atrium/contracts/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api/http';
import { useSchemaForm } from '../../../crud/schema-form';
import { formatDateTime } from '../../../locale/datetime';
import { useSession } from '../../../services/session';
import '../messages';

const URL = '/api/user/token';
const KEY = ['user', 'tokens'] as const;

/** The permissions the caller may put in a token, grouped by entity (`system:user` → list, query…). */
function usePermissionGroups(): { group: string; permissions: string[] }[] {
  const held = useSession((s) => s.userInfo?.permissions);
  return useMemo(() => {
    const own = held ?? [];
    const candidates = own.includes(ALL_PERMISSIONS) ? allPermissions : own;
    const groups = new Map<string, string[]>();
    for (const permission of [...new Set(candidates)].sort()) {
      if (permission === ALL_PERMISSIONS || isPlatformPermission(permission)) continue;
      const group = permission.split(':').slice(0, 2).join(':');
      groups.set(group, [...(groups.get(group) ?? []), permission]);
    }
    return [...groups].map(([group, permissions]) => ({ group, permissions }));
  }, [held]);
}

/** The user centre's personal API tokens: listed with their last use, made with a subset of one's own permissions, revoked. */
export function ApiTokens() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const query = useQuery({ queryKey: KEY, queryFn: () => http.get<ApiToken[]>(URL) });
  const revoke = useMutation({
    mutationFn: (id: number) => http.delete<null>(`${URL}/${id}`),
    onSuccess: () => {
      Message.success(t('tokens.revoked'));
      void client.invalidateQueries({ queryKey: KEY });
    },
  });
  const now = Date.now();
  return (
    <section className="own-sessions" data-testid="api-tokens">
      <div className="own-sessions-head">
        <div>
          <Typography.Title heading={6} style={{ margin: 0 }}>
            {t('tokens.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('tokens.intro')}</Typography.Text>
        </div>
        <Button type="primary" onClick={() => setCreating(true)} data-testid="tokens-create">
          {t('tokens.create')}
        </Button>
      </div>
      <Table<ApiToken>
        rowKey="id"
        loading={query.isPending}
        data={query.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        noDataElement={query.isError ? t('crud.loadFailed') : t('tokens.none')}
        columns={[
          { title: t('tokens.name'), dataIndex: 'name' },
          {
            title: t('tokens.permissions'),
            dataIndex: 'permissions',
            render: (permissions: string[]) => (
              <Popover
                content={
                  <div className="token-permission-list">
                    {permissions.map((p) => (
                      <div key={p}>
                        <Typography.Text code>{p}</Typography.Text>
                      </div>
                    ))}
                  </div>
                }
              >
                <Button size="mini" type="text">
                  {t('tokens.permissionCount', { count: permissions.length })}
                </Button>
              </Popover>
            ),
          },
          {
            title: t('tokens.expiresAt'),
            dataIndex: 'expiresAt',
            render: (v: string) => (
              <span>
                {formatDateTime(v)} {Date.parse(v) <= now ? <Tag color="red">{t('tokens.expired')}</Tag> : null}
              </span>
            ),
          },
          {
            title: t('tokens.lastUsed'),
            dataIndex: 'lastUsedAt',
            render: (v: string | null) => (v ? formatDateTime(v) : t('tokens.never')),
          },
          {
            title: '',
            dataIndex: 'id',
            align: 'right',
            render: (id: number, row) => (
              <Popconfirm title={t('tokens.revokeConfirm', { name: row.name })} onOk={() => revoke.mutate(id)}>
                <Button size="mini" type="text" status="danger" data-testid={`token-revoke-${id}`}>
                  {t('tokens.revoke')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      {creating && (
        <CreateTokenModal
          onClose={() => setCreating(false)}
          onCreated={(answer) => {
            setCreating(false);
            setCreated(answer);
            void client.invalidateQueries({ queryKey: KEY });
          }}
        />
      )}
      <Modal
        title={t('tokens.createdTitle')}
        visible={created !== null}
        onOk={() => setCreated(null)}
        onCancel={() => setCreated(null)}
        okText={t('tokens.done')}
        hideCancel
        maskClosable={false}
        style={{ width: 'min(560px, 94vw)' }}
      >
        <Alert type="warning" content={t('tokens.onceWarning')} style={{ marginBottom: 12 }} />
        <div data-testid="token-created" className="token-created">
          <Typography.Text copyable code>
            {created?.token}
          </Typography.Text>
        </div>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
          {t('tokens.usage')}
        </Typography.Paragraph>
      </Modal>
    </section>
  );
}

function CreateTokenModal({ onClose, onCreated }: { onClose: () => void; onCreated: (created: CreatedApiToken) => void }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm();
  const groups = usePermissionGroups();
  const label = (field: string) => t(`tokens.${field}`);
  const { validate, recheck, showServerErrors } = useSchemaForm(form, createApiTokenInputSchema, { label });
  const create = useMutation({
    mutationFn: (body: unknown) => http.post<CreatedApiToken>(URL, body, { silent: true }),
    onSuccess: onCreated,
    onError: (error) => {
      if (!showServerErrors(error)) Message.error((error as Error).message);
    },
  });
  const values = () => {
    const raw = form.getFieldsValue() as { name?: string; expiresAt?: string; permissions?: string[] };
    return {
      name: raw.name ?? '',
      // the end of the chosen day, in the user's time zone
      expiresAt: raw.expiresAt ? dayjs(raw.expiresAt).endOf('day').toISOString() : '',
      permissions: raw.permissions ?? [],
    };
  };
  const send = () => {
    const checked = validate(undefined, values());
    if (checked.ok) create.mutate(checked.data);
  };
  const groupLabel = (group: string) => {
    const key = `menu.${group.replace(':', '.')}`;
    return i18n.exists(key) ? `${t(key)} (${group})` : group;
  };
  const today = dayjs().startOf('day');
  return (
    <Modal
      title={t('tokens.create')}
      visible
      onOk={send}
      onCancel={onClose}
      confirmLoading={create.isPending}
      okText={t('tokens.createOk')}
      style={{ width: 'min(640px, 94vw)' }}
      unmountOnExit
    >
      <Form form={form} layout="vertical" onValuesChange={(changed) => recheck(changed)} data-testid="token-form">
        <Form.Item label={label('name')} field="name" required>
          <Input maxLength={API_TOKEN_NAME_MAX} showWordLimit placeholder={t('tokens.namePlaceholder')} />
        </Form.Item>
        <Form.Item label={label('expiresAt')} field="expiresAt" required extra={t('tokens.expiresHint')}>
          <DatePicker
            style={{ width: '100%' }}
            disabledDate={(day) => day.isBefore(today) || !day.isBefore(today.add(API_TOKEN_MAX_DAYS, 'day'))}
          />
        </Form.Item>
        <Form.Item label={label('permissions')} field="permissions" required extra={t('tokens.permissionsHint')}>
          <PermissionPicker groups={groups} groupLabel={groupLabel} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

type Group = { group: string; permissions: string[] };

/** Checkboxes per entity; the form's value is the flat list of the permissions ticked. */
function PermissionPicker({
  groups,
  groupLabel,
  value = [],
  onChange,
}: {
  groups: Group[];
  groupLabel: (group: string) => string;
  value?: string[];
  onChange?: (value: string[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const chosen = new Set(value);
  // the common actions in words, the others as their code; the whole permission on hover
  const actionLabel = (permission: string) => {
    const action = permission.split(':').slice(2).join(':');
    const key = `tokens.action.${action}`;
    return <span title={permission}>{i18n.exists(key) ? t(key) : action}</span>;
  };
  const setGroup = (group: Group, picked: string[]) =>
    onChange?.([...value.filter((p) => !group.permissions.includes(p)), ...picked].sort());
  return (
    <div className="token-permissions" data-testid="token-permissions">
      {groups.length === 0 && <Typography.Text type="secondary">{t('tokens.noPermissions')}</Typography.Text>}
      {groups.map((group) => {
        const picked = group.permissions.filter((p) => chosen.has(p));
        return (
          <div key={group.group} className="token-permission-group">
            <Checkbox
              checked={picked.length === group.permissions.length}
              indeterminate={picked.length > 0 && picked.length < group.permissions.length}
              onChange={(all: boolean) => setGroup(group, all ? group.permissions : [])}
            >
              <Typography.Text bold>{groupLabel(group.group)}</Typography.Text>
            </Checkbox>
            <Checkbox.Group
              value={picked}
              onChange={(next: string[]) => setGroup(group, next)}
              options={group.permissions.map((p) => ({ label: actionLabel(p), value: p }))}
            />
          </div>
        );
      })}
    </div>
  );
}
