import { Button, Descriptions, Input, Message, Skeleton, Space, Tag, Typography } from '@arco-design/web-react';
import type { MfaFactors } from '@atrium/contracts/auth';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, http } from '../../../api/http';
import { cleanCode } from '../../../components/second-factor/code';
import { TotpEnrolment } from '../../../components/second-factor/TotpEnrolment';
import { formatDateTime } from '../../../locale/datetime';
import '../messages';
import { Passkeys } from './Passkeys';

const KEY = ['user', 'mfa'] as const;

/** A six-digit code field with its own button (removing the app, or proving it again for a change). */
function CodeAction({
  id,
  label,
  button,
  danger,
  onSubmit,
}: {
  id: string;
  label: string;
  button: string;
  danger?: boolean;
  onSubmit: (code: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const send = async () => {
    if (code.length !== 6) {
      setError(t('login.mfa.required'));
      return;
    }
    setBusy(true);
    try {
      await onSubmit(code);
      setCode('');
      setError('');
    } catch (e) {
      setError(e instanceof ApiError && e.status === 400 ? t('login.mfa.wrong') : (e as Error).message);
      setCode('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="mfa-enrol">
      <label htmlFor={id} className="mfa-label">
        {label}
      </label>
      <Space wrap>
        <Input
          id={id}
          value={code}
          onChange={(value) => {
            setCode(cleanCode(value, 'totp'));
            setError('');
          }}
          onPressEnter={() => void send()}
          inputMode="numeric"
          autoComplete="one-time-code"
          className="mfa-code-input"
          style={{ width: 160 }}
          status={error ? 'error' : undefined}
          aria-invalid={Boolean(error)}
          aria-describedby={`${id}-error`}
        />
        <Button status={danger ? 'danger' : undefined} loading={busy} onClick={() => void send()}>
          {button}
        </Button>
      </Space>
      <div id={`${id}-error`} className="mfa-error" role="alert">
        {error}
      </div>
    </div>
  );
}

/** The security tab's two-step verification: the factors, enrolling an authenticator app, removing it, proving it again. */
export function SecondFactor() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [enrolling, setEnrolling] = useState(false);
  const query = useQuery({ queryKey: KEY, queryFn: () => http.get<MfaFactors>('/api/user/mfa') });
  const refresh = () => void client.invalidateQueries({ queryKey: KEY });
  const remove = useMutation({
    mutationFn: (code: string) => http.delete<null>('/api/user/mfa/totp', { body: { code }, silent: true }),
    onSuccess: () => {
      Message.success(t('mfaPanel.removed'));
      refresh();
    },
  });
  const data = query.data;
  const totp = data?.factors.find((f) => f.kind === 'totp');
  return (
    <section className="user-mfa" aria-labelledby="user-mfa-title">
      <Typography.Title heading={6} id="user-mfa-title">
        {t('mfaPanel.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('mfaPanel.intro')}</Typography.Paragraph>
      {data?.required ? (
        <Tag color="orangered" style={{ marginBottom: 12 }}>
          {t('mfaPanel.required')}
        </Tag>
      ) : null}
      {query.isPending ? (
        <Skeleton animation text={{ rows: 2 }} />
      ) : enrolling ? (
        <Space direction="vertical" size="medium">
          <TotpEnrolment
            begin={() => http.post<{ secret: string; otpauthUrl: string }>('/api/user/mfa/totp', undefined, { silent: true })}
            confirm={async (code) =>
              (await http.post<{ recoveryCodes: string[] }>('/api/user/mfa/totp/confirm', { code }, { silent: true })).recoveryCodes
            }
            onDone={() => {
              setEnrolling(false);
              Message.success(t('mfaPanel.enabledNow'));
              refresh();
            }}
          />
          <Button
            type="text"
            onClick={() => {
              setEnrolling(false);
              refresh();
            }}
          >
            {t('mfaPanel.cancel')}
          </Button>
        </Space>
      ) : totp ? (
        <Space direction="vertical" size="medium" style={{ width: '100%' }}>
          <Descriptions
            column={1}
            data={[
              {
                label: t('mfaPanel.totp'),
                value: (
                  <Space wrap>
                    <Tag color="green">{t('mfaPanel.enabled')}</Tag>
                    {totp.createTime ? <span>{t('mfaPanel.added', { time: formatDateTime(totp.createTime) })}</span> : null}
                    {totp.lastUsedAt ? <span>{t('mfaPanel.lastUsed', { time: formatDateTime(totp.lastUsedAt) })}</span> : null}
                  </Space>
                ),
              },
              { label: t('mfa.recovery.title'), value: t('mfaPanel.recoveryLeft', { count: data?.recoveryCodesLeft ?? 0 }) },
            ]}
          />
          <CodeAction
            id="mfa-verify-code"
            label={t('mfaPanel.stepUp')}
            button={t('mfaPanel.verify')}
            onSubmit={async (code) => {
              await http.post<null>('/api/user/mfa/verify', { method: 'totp', code }, { silent: true });
              Message.success(t('mfaPanel.verified'));
            }}
          />
          <CodeAction
            id="mfa-remove-code"
            label={t('mfaPanel.removeCode')}
            button={t('mfaPanel.remove')}
            danger
            onSubmit={(code) => remove.mutateAsync(code).then(() => undefined)}
          />
        </Space>
      ) : (
        <Space direction="vertical">
          {data?.factors.length ? null : <Typography.Text type="secondary">{t('mfaPanel.none')}</Typography.Text>}
          <Button type="primary" onClick={() => setEnrolling(true)}>
            {t('mfaPanel.enable')}
          </Button>
        </Space>
      )}
      {data && !enrolling ? (
        <div style={{ marginTop: 24 }}>
          <Passkeys factors={data.factors} onChange={refresh} />
          {totp ? null : data.factors.length ? (
            <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
              {t('mfaPanel.recoveryLeft', { count: data.recoveryCodesLeft })}
            </Typography.Paragraph>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
