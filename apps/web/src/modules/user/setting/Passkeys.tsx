import { Button, Input, List, Message, Popconfirm, Space, Typography } from '@arco-design/web-react';
import type { MfaFactors } from '@atrium/contracts/auth';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api/http';
import '../../../components/second-factor/messages';
import { passkeyAttestation, passkeysAvailable } from '../../../components/second-factor/passkey';
import { RecoveryCodes } from '../../../components/second-factor/RecoveryCodes';
import { formatDateTime } from '../../../locale/datetime';

/**
 * The security tab's passkeys: each with its name, when it was added and last used, and a remove button;
 * a name and "Add a passkey" make another. Adding or removing one when the account has a second factor
 * may ask for it again (the step-up dialog opens by itself). The first factor brings the recovery codes.
 */
export function Passkeys({ factors, onChange }: { factors: MfaFactors['factors']; onChange: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const passkeys = factors.filter((f) => f.kind === 'webauthn');
  const add = async () => {
    if (!name.trim()) {
      setError(t('passkey.nameRequired'));
      return;
    }
    setBusy(true);
    setError('');
    try {
      const options = await http.post<Record<string, unknown>>('/api/user/mfa/webauthn/register/options', undefined, { silent: true });
      const response = await passkeyAttestation(options);
      const added = await http.post<{ id: number; recoveryCodes: string[] | null }>(
        '/api/user/mfa/webauthn/register',
        { name: name.trim(), response },
        { silent: true },
      );
      setName('');
      Message.success(t('passkey.added'));
      if (added.recoveryCodes) setCodes(added.recoveryCodes);
      onChange();
    } catch {
      setError(t('passkey.failed'));
    } finally {
      setBusy(false);
    }
  };
  // the confirmation does not wait for it (a refusal is shown by the HTTP client): the removal may first ask
  // for the second factor again, in a dialog the open confirmation would otherwise sit over
  const remove = async (id: number) => {
    await http.delete<null>(`/api/user/mfa/webauthn/${id}`);
    Message.success(t('passkey.removed'));
    onChange();
  };
  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  return (
    <section className="user-passkeys" aria-labelledby="user-passkeys-title">
      <Typography.Title heading={6} id="user-passkeys-title">
        {t('passkey.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('passkey.intro')}</Typography.Paragraph>
      {passkeys.length ? (
        <List
          size="small"
          dataSource={passkeys}
          render={(p) => (
            <List.Item
              key={p.id}
              actions={[
                <Popconfirm
                  key="remove"
                  title={t('passkey.removeConfirm', { name: p.name })}
                  onOk={() => {
                    remove(p.id as number).catch(() => {});
                  }}
                >
                  <Button type="text" size="mini" status="danger" aria-label={`${t('passkey.remove')} ${p.name}`}>
                    {t('passkey.remove')}
                  </Button>
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={p.name}
                description={
                  <Space wrap size={12}>
                    {p.createTime ? <span>{t('passkey.addedAt', { time: formatDateTime(p.createTime) })}</span> : null}
                    <span>{p.lastUsedAt ? t('passkey.lastUsed', { time: formatDateTime(p.lastUsedAt) }) : t('passkey.neverUsed')}</span>
                  </Space>
                }
              />
            </List.Item>
          )}
        />
      ) : (
        <Typography.Text type="secondary">{t('passkey.none')}</Typography.Text>
      )}
      {passkeysAvailable() ? (
        <div className="mfa-enrol">
          <label htmlFor="passkey-name" className="mfa-label">
            {t('passkey.name')}
          </label>
          <Space wrap>
            <Input
              id="passkey-name"
              value={name}
              maxLength={64}
              placeholder={t('passkey.namePlaceholder')}
              onChange={(value) => {
                setName(value);
                setError('');
              }}
              onPressEnter={() => void add()}
              style={{ width: 240, maxWidth: '100%' }}
              status={error ? 'error' : undefined}
              aria-invalid={Boolean(error)}
              aria-describedby="passkey-name-error"
            />
            <Button type="primary" loading={busy} onClick={() => void add()}>
              {t('passkey.add')}
            </Button>
          </Space>
          <div id="passkey-name-error" className="mfa-error" role="alert">
            {error}
          </div>
        </div>
      ) : (
        <Typography.Paragraph type="secondary">{t('passkey.unavailable')}</Typography.Paragraph>
      )}
    </section>
  );
}
