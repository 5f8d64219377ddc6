import { Button, Card, Empty, Form, Input, Message, Skeleton, Space, Tabs, Typography } from '@arco-design/web-react';
import type { UserProfile } from '@atrium/contracts/auth';
import { changePasswordInputSchema, countWords, userSettingsInputSchema } from '@atrium/contracts/forms';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { http, USER_INFO_URL } from '../../../api/http';
import { useSchemaForm } from '../../../crud/schema-form';
import { loadUserInfo } from '../../../services/session';
import '../../form/messages';
import { userProfileKeys } from '../info/UserInfoPage';
import '../messages';
import { ApiTokens } from './ApiTokens';
import { CertificationForm } from './CertificationForm';
import { ContactForm } from './ContactForm';
import { OwnSessions } from './OwnSessions';
import { SecondFactor } from './SecondFactor';
import { TenantMfaPolicy } from './TenantMfaPolicy';
import { TenantSso } from './TenantSso';

// both tabs' forms: labels on the left, one readable column
const formLayout = { layout: 'horizontal', labelCol: { span: 5 }, wrapperCol: { span: 14 }, style: { maxWidth: 760 } } as const;

const settingFields = ['email', 'nickname', 'countryRegion', 'area', 'address', 'profile'] as const;

/** The plain text settings between the e-mail and the profile, in order, with their lengths (as the contract's). */
const textFields: { field: (typeof settingFields)[number]; maxLength: number; required?: boolean; showWordLimit?: boolean }[] = [
  { field: 'nickname', maxLength: 30, required: true, showWordLimit: true },
  { field: 'countryRegion', maxLength: 50, required: true },
  { field: 'area', maxLength: 100, required: true },
  { field: 'address', maxLength: 500 },
];

const TABS = ['basic', 'security', 'certification'] as const;

/** Spec user settings: basic information, security (own password, phone and e-mail, sessions, API tokens) and certification; `?tab=` picks one. */
export function UserSettingPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab = TABS.find((name) => name === asked) ?? 'basic';
  return (
    <Card bordered={false}>
      <Tabs activeTab={tab} onChange={(key) => setParams({ tab: key }, { replace: true })} lazyload>
        <Tabs.TabPane key="basic" title={t('userSetting.basic')}>
          <BasicSettings />
        </Tabs.TabPane>
        <Tabs.TabPane key="security" title={t('userSetting.security')}>
          <Typography.Title heading={6}>{t('userSetting.passwordTitle')}</Typography.Title>
          <PasswordForm />
          <ContactForm layout={formLayout} />
          <SecondFactor />
          <TenantMfaPolicy />
          <TenantSso />
          <OwnSessions />
          <ApiTokens />
        </Tabs.TabPane>
        <Tabs.TabPane key="certification" title={t('cert.tab')}>
          <CertificationForm />
        </Tabs.TabPane>
      </Tabs>
    </Card>
  );
}

function BasicSettings() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const client = useQueryClient();
  const [profile, setProfile] = useState('');
  const label = (field: string) => t(`userSetting.${field}`);
  const { validate, recheck, showServerErrors } = useSchemaForm(form, userSettingsInputSchema, {
    label,
    rules: { profile: t('userSetting.tooManyWords') },
  });
  const query = useQuery({ queryKey: userProfileKeys.profile, queryFn: () => http.get<UserProfile>(USER_INFO_URL) });
  const save = useMutation({
    mutationFn: (body: unknown) => http.put<UserProfile>(USER_INFO_URL, body, { silent: true }),
    onSuccess: (saved) => {
      client.setQueryData(userProfileKeys.profile, saved);
      // the navbar and the workplace greet with the new nickname at once
      void loadUserInfo().catch(() => undefined);
      Message.success(t('userSetting.saved'));
    },
    onError: (error) => {
      if (!showServerErrors(error)) Message.error((error as Error).message);
    },
  });
  const { data } = query;
  const reset = () => {
    if (!data) return;
    const values = Object.fromEntries(settingFields.map((f) => [f, data[f] ?? '']));
    form.setFieldsValue(values);
    setProfile(String(values.profile ?? ''));
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: filled once per loaded profile
  useEffect(reset, [data]);

  if (query.isPending) return <Skeleton animation text={{ rows: 6 }} />;
  if (query.isError) {
    return (
      <>
        <Empty description={t('crud.loadFailed')} />
        <div className="center-actions">
          <Button onClick={() => void query.refetch()}>{t('crud.retry')}</Button>
        </div>
      </>
    );
  }
  const send = () => {
    const checked = validate();
    if (checked.ok) save.mutate(checked.data);
  };
  return (
    <Form
      form={form}
      {...formLayout}
      onValuesChange={(changed) => {
        if ('profile' in changed) setProfile(String(changed.profile ?? ''));
        recheck(changed);
      }}
    >
      {/* the e-mail signs in and recovers the password: it changes under Security, with the current password */}
      <Form.Item label={label('email')} field="email" required extra={t('userSetting.emailHint')}>
        <Input maxLength={100} disabled />
      </Form.Item>
      {textFields.map(({ field, maxLength, required, showWordLimit }) => (
        <Form.Item key={field} label={label(field)} field={field} required={required}>
          <Input maxLength={maxLength} showWordLimit={showWordLimit} />
        </Form.Item>
      ))}
      <Form.Item label={label('profile')} field="profile" extra={`${countWords(profile)} / 200`}>
        <Input.TextArea placeholder={t('userSetting.profile.placeholder')} autoSize={{ minRows: 3, maxRows: 8 }} />
      </Form.Item>
      <Form.Item wrapperCol={{ offset: 5, span: 14 }}>
        <Space>
          <Button type="primary" loading={save.isPending} onClick={send}>
            {t('userSetting.save')}
          </Button>
          <Button onClick={reset}>{t('userSetting.reset')}</Button>
        </Space>
      </Form.Item>
    </Form>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const label = (field: string) => t(`userSetting.${field}`);
  const { validate, recheck, showServerErrors } = useSchemaForm(form, changePasswordInputSchema, { label });
  const change = useMutation({
    mutationFn: (body: unknown) => http.put<{ endedSessions: number }>('/api/user/password', body, { silent: true }),
    onSuccess: ({ endedSessions }) => {
      form.resetFields();
      Message.success(t('userSetting.passwordChanged', { count: endedSessions }));
    },
    onError: (error) => {
      if (!showServerErrors(error)) Message.error((error as Error).message);
    },
  });
  const send = () => {
    const values = form.getFieldsValue() as Record<string, string>;
    const checked = validate(undefined, values);
    if (!checked.ok) return;
    if (values.newPassword !== values.confirmPassword) {
      form.setFields({ confirmPassword: { error: { message: t('userSetting.mismatch') } } });
      return;
    }
    change.mutate(checked.data);
  };
  return (
    <Form
      form={form}
      {...formLayout}
      onValuesChange={(changed) => {
        if ('confirmPassword' in changed) form.setFields({ confirmPassword: { error: undefined } });
        recheck(changed);
      }}
    >
      <Form.Item label={label('oldPassword')} field="oldPassword" required>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item label={label('newPassword')} field="newPassword" required extra={t('userSetting.passwordRule')}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item label={label('confirmPassword')} field="confirmPassword" required>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item wrapperCol={{ offset: 5, span: 14 }}>
        <Button type="primary" loading={change.isPending} onClick={send}>
          {t('userSetting.changePassword')}
        </Button>
      </Form.Item>
    </Form>
  );
}
