import { Button, Message, Popconfirm } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api';

/**
 * Removes a user's second factors (authenticator app, passkeys, recovery codes) after a confirmation: for
 * someone who lost them. The server allows it under the password-reset rule and tells the user by mail.
 */
export function RemoveFactorsButton({ id, name }: { id: number; name: string }) {
  const { t } = useTranslation();
  const remove = async () => {
    const { removed } = await http.delete<{ removed: boolean }>(`/api/system/user/mfa/${id}`);
    Message.success(t(removed ? 'system.user.removeMfa.done' : 'system.user.removeMfa.none'));
  };
  return (
    <Popconfirm title={t('system.user.removeMfa.confirm', { name })} onOk={remove} position="tr">
      <Button type="text" size="mini" status="danger">
        {t('system.user.removeMfa')}
      </Button>
    </Popconfirm>
  );
}
