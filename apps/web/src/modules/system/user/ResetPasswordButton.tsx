import { Button, Form, Input, Message, Modal } from '@arco-design/web-react';
import { passwordSchema } from '@atrium/contracts/auth';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api';
import { issuesToErrors } from '../../../crud/validation';

/** Sets a new password for a user; their sessions end (the server answers them 1302). */
export function ResetPasswordButton({ id, name }: { id: number; name: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm();
  const submit = async () => {
    const password = (form.getFieldValue('password') as string | undefined) ?? '';
    const parsed = passwordSchema.safeParse(password);
    if (!parsed.success) {
      // the policy's own words ('at least 10 characters', 'letters, digits and a special character')
      const issue = parsed.error.issues[0];
      const message =
        password && issue?.message.startsWith('password.')
          ? t(issue.message)
          : issuesToErrors(
              parsed.error.issues.map((i) => ({ ...i, path: ['password'] })),
              () => t('system.user.newPassword'),
              t,
              { password },
            ).password;
      form.setFields({ password: { error: { message } } });
      return;
    }
    await http.put(`/api/system/user/resetPwd/${id}`, { password });
    Message.success(t('system.user.resetPwd.done'));
    setOpen(false);
  };
  return (
    <>
      <Button type="text" size="mini" onClick={() => setOpen(true)}>
        {t('system.user.resetPwd')}
      </Button>
      <Modal title={t('system.user.resetPwd.title', { name })} visible={open} onOk={submit} onCancel={() => setOpen(false)} unmountOnExit>
        <Form form={form} layout="vertical">
          <Form.Item label={t('system.user.newPassword')} field="password" extra={t('password.rule')}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
