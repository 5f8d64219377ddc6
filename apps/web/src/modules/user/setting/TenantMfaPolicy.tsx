import { Message, Select, Typography } from '@arco-design/web-react';
import type { MfaPolicy } from '@atrium/contracts/auth';
import { codeOptions } from '@atrium/contracts/labels';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api/http';
import { Can } from '../../../components/permission/permission';
import '../messages';

const KEY = ['tenant', 'mfa-policy'] as const;
const POLICY_URL = '/api/system/security/mfa-policy';

/** Who in the current organisation must sign in with a second factor; set by whoever may grant roles. */
function PolicySelect() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const query = useQuery({ queryKey: KEY, queryFn: () => http.get<{ policy: MfaPolicy }>(POLICY_URL) });
  const save = useMutation({
    mutationFn: (policy: MfaPolicy) => http.put<{ policy: MfaPolicy }>(POLICY_URL, { policy }),
    onSuccess: (saved) => {
      client.setQueryData(KEY, saved);
      void client.invalidateQueries({ queryKey: ['user', 'mfa'] });
      Message.success(t('mfaPanel.policySaved'));
    },
  });
  return (
    <section className="user-mfa-policy" aria-labelledby="user-mfa-policy-title">
      <Typography.Title heading={6} id="user-mfa-policy-title">
        {t('mfaPanel.policyTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('mfaPanel.policyIntro')}</Typography.Paragraph>
      <Select
        aria-labelledby="user-mfa-policy-title"
        style={{ width: 240, maxWidth: '100%' }}
        loading={query.isPending || save.isPending}
        value={query.data?.policy}
        options={codeOptions('mfaPolicy', i18n.language)}
        onChange={(policy: MfaPolicy) => save.mutate(policy)}
      />
    </section>
  );
}

export function TenantMfaPolicy() {
  return (
    <Can permission="system:role:grant">
      <PolicySelect />
    </Can>
  );
}
