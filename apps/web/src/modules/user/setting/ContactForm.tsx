import { Button, Form, Input, Message, Typography } from '@arco-design/web-react';
import type { UserProfile } from '@atrium/contracts/auth';
import { changeContactInputSchema } from '@atrium/contracts/forms';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { http, USER_INFO_URL } from '../../../api/http';
import { useSchemaForm } from '../../../crud/schema-form';
import { loadUserInfo } from '../../../services/session';
import { userProfileKeys } from '../info/UserInfoPage';
import '../messages';

/**
 * The phone and e-mail one signs in with, changed only with the current password: a session left open on
 * someone else's screen cannot move the account's identifiers away from its owner.
 */
export function ContactForm({ layout }: { layout: Record<string, unknown> }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const client = useQueryClient();
  const label = (field: string) => t(`contact.${field}`);
  const { validate, recheck, showServerErrors } = useSchemaForm(form, changeContactInputSchema, { label });
  const { data } = useQuery({ queryKey: userProfileKeys.profile, queryFn: () => http.get<UserProfile>(USER_INFO_URL) });
  useEffect(() => {
    if (data) form.setFieldsValue({ phone: data.phone ?? '', email: data.email ?? '' });
  }, [data, form]);
  const save = useMutation({
    mutationFn: (body: unknown) => http.put<UserProfile>('/api/user/contact', body, { silent: true }),
    onSuccess: (saved) => {
      client.setQueryData(userProfileKeys.profile, saved);
      form.setFieldValue('password', '');
      void loadUserInfo().catch(() => undefined);
      Message.success(t('contact.saved'));
    },
    onError: (error) => {
      if (!showServerErrors(error)) Message.error((error as Error).message);
    },
  });
  const send = () => {
    const checked = validate();
    if (checked.ok) save.mutate(checked.data);
  };
  return (
    <section className="own-contact" data-testid="own-contact">
      <Typography.Title heading={6}>{t('contact.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('contact.intro')}</Typography.Paragraph>
      <Form form={form} {...layout} onValuesChange={(changed) => recheck(changed)}>
        <Form.Item label={label('phone')} field="phone" extra={t('contact.phoneHint')}>
          <Input maxLength={20} autoComplete="tel" />
        </Form.Item>
        <Form.Item label={label('email')} field="email" required>
          <Input maxLength={100} autoComplete="email" />
        </Form.Item>
        <Form.Item label={label('password')} field="password" required>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 5, span: 14 }}>
          <Button type="primary" loading={save.isPending} onClick={send}>
            {t('contact.save')}
          </Button>
        </Form.Item>
      </Form>
    </section>
  );
}
