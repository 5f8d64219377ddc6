import { Alert, Button, Form, Input, Message, Select, Space, Switch, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { codeOptions } from '@atrium/contracts/labels';
import { type SsoSettings, type SsoSettingsInput, ssoSettingsInputSchema } from '@atrium/contracts/sso';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api/http';
import { Can } from '../../../components/permission/permission';
import { useSchemaForm } from '../../../crud/schema-form';
import { useSession } from '../../../services/session';
import '../messages';

const layout = { layout: 'horizontal', labelCol: { span: 6 }, wrapperCol: { span: 16 }, style: { maxWidth: 760 } } as const;

/** What the form holds: the secret as typed ('' keeps the stored one), the role claim '' for none. */
type Values = Omit<SsoSettingsInput, 'clientSecret' | 'roleClaim'> & { clientSecret: string; roleClaim: string };

/** The form's values as the API takes them. */
const toInput = (values: Values): Record<string, unknown> => ({
  ...values,
  clientSecret: values.clientSecret ? values.clientSecret : undefined,
  roleClaim: values.roleClaim?.trim() ? values.roleClaim.trim() : null,
  roleMappings: values.roleMappings ?? [],
});

/**
 * The organisation's single sign-on (OpenID Connect) settings (docs/adr/049-single-sign-on-per-tenant.md),
 * set by whoever may grant roles: the provider, the client (its secret write-only), the claims, the role
 * mapping, the policy and just-in-time accounts. Shows the redirect URI to register at the provider.
 */
function SsoForm({ tenantId }: { tenantId: number }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [form] = Form.useForm();
  const url = `/api/system/tenant/${tenantId}/sso`;
  const key = ['tenant', tenantId, 'sso'];
  const label = (field: string) => t(`ssoPanel.${field}`);
  const { validate, recheck, showServerErrors } = useSchemaForm(form, ssoSettingsInputSchema, { label });
  const query = useQuery({ queryKey: key, queryFn: () => http.get<SsoSettings>(url) });
  const roles = useQuery({
    queryKey: ['sso', 'role-options'],
    queryFn: () => http.get<{ list: { code: string; name: string }[] }>('/api/system/role', { params: { pageNum: 1, pageSize: 100 } }),
  });
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => http.put<SsoSettings>(url, body, { silent: true }),
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      form.setFieldValue('clientSecret', '');
      Message.success(t('ssoPanel.saved'));
    },
    onError: (error) => {
      if (!showServerErrors(error)) Message.error((error as Error).message);
    },
  });
  const data = query.data;
  useEffect(() => {
    if (!data) return;
    const { hasClientSecret: _h, redirectUri: _r, updateTime: _u, ...values } = data;
    form.setFieldsValue({ ...values, roleClaim: values.roleClaim ?? '', clientSecret: '' });
  }, [data, form]);

  const send = () => {
    const checked = validate(undefined, toInput(form.getFieldsValue() as Values));
    if (checked.ok) save.mutate(toInput(form.getFieldsValue() as Values));
  };
  const roleOptions = (roles.data?.list ?? []).map((r) => ({ label: `${r.name} (${r.code})`, value: r.code }));

  return (
    <section className="user-sso" aria-labelledby="user-sso-title" data-testid="tenant-sso">
      <Typography.Title heading={6} id="user-sso-title">
        {t('ssoPanel.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('ssoPanel.intro')}</Typography.Paragraph>
      {data ? (
        <Alert
          type="info"
          style={{ marginBottom: 16, maxWidth: 760 }}
          content={
            <>
              {t('ssoPanel.redirectUri')}{' '}
              <Typography.Text copyable code data-testid="sso-redirect-uri">
                {data.redirectUri}
              </Typography.Text>
            </>
          }
        />
      ) : null}
      <Form form={form} {...layout} onValuesChange={(changed) => recheck(changed)} disabled={query.isPending}>
        <Form.Item label={label('enabled')} field="enabled" triggerPropName="checked" initialValue={false}>
          <Switch />
        </Form.Item>
        <Form.Item label={label('issuer')} field="issuer" required extra={t('ssoPanel.issuerHint')}>
          <Input placeholder="https://idp.example.com/realms/acme" maxLength={500} />
        </Form.Item>
        <Form.Item label={label('clientId')} field="clientId" required>
          <Input maxLength={200} autoComplete="off" />
        </Form.Item>
        <Form.Item
          label={label('clientSecret')}
          field="clientSecret"
          extra={data?.hasClientSecret ? t('ssoPanel.secretKept') : t('ssoPanel.secretNone')}
        >
          <Input.Password maxLength={500} autoComplete="new-password" placeholder={data?.hasClientSecret ? '••••••••' : ''} />
        </Form.Item>
        <Form.Item label={label('scopes')} field="scopes" required initialValue="openid profile email">
          <Input maxLength={300} />
        </Form.Item>
        <Form.Item
          label={label('userClaim')}
          field="userClaim"
          required
          initialValue="preferred_username"
          extra={t('ssoPanel.userClaimHint')}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item label={label('roleClaim')} field="roleClaim" extra={t('ssoPanel.roleClaimHint')}>
          <Input maxLength={100} placeholder="groups" />
        </Form.Item>
        <Form.Item label={label('roleMappings')} field="roleMappings" extra={t('ssoPanel.roleMappingsHint')}>
          <Form.List field="roleMappings">
            {(fields, { add, remove }) => (
              <div className="sso-mappings">
                {fields.map((item, index) => (
                  <Space key={item.key} wrap className="sso-mapping">
                    <Form.Item field={`${item.field}.value`} noStyle>
                      <Input
                        placeholder={t('ssoPanel.claimValue')}
                        aria-label={`${t('ssoPanel.claimValue')} ${index + 1}`}
                        style={{ width: 180 }}
                      />
                    </Form.Item>
                    <span aria-hidden="true">→</span>
                    <Form.Item field={`${item.field}.role`} noStyle>
                      <Select
                        placeholder={t('ssoPanel.role')}
                        aria-label={`${t('ssoPanel.role')} ${index + 1}`}
                        options={roleOptions}
                        loading={roles.isPending}
                        style={{ width: 200 }}
                      />
                    </Form.Item>
                    <Button icon={<IconDelete />} aria-label={t('ssoPanel.removeMapping')} onClick={() => remove(index)} />
                  </Space>
                ))}
                <Button icon={<IconPlus />} onClick={() => add({ value: '' })}>
                  {t('ssoPanel.addMapping')}
                </Button>
              </div>
            )}
          </Form.List>
        </Form.Item>
        <Form.Item label={label('policy')} field="policy" initialValue="password_and_sso" extra={t('ssoPanel.policyHint')}>
          <Select options={codeOptions('ssoPolicy', i18n.language)} style={{ maxWidth: 360 }} />
        </Form.Item>
        <Form.Item label={label('jit')} field="jit" triggerPropName="checked" initialValue={false} extra={t('ssoPanel.jitHint')}>
          <Switch />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 6, span: 16 }}>
          <Button type="primary" loading={save.isPending} onClick={send} data-testid="sso-save">
            {t('ssoPanel.save')}
          </Button>
        </Form.Item>
      </Form>
    </section>
  );
}

export function TenantSso() {
  const tenantId = useSession((s) => s.userInfo?.tenantId);
  if (!tenantId) return null;
  return (
    <Can permission="system:role:grant">
      <SsoForm tenantId={tenantId} />
    </Can>
  );
}
