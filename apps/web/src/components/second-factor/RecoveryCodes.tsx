import { Alert, Button, Message, Space } from '@arco-design/web-react';
import { IconCopy, IconDownload } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import './second-factor.css';

/** The ten recovery codes, shown once after enrolment: copy or download them, then go on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = `${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      Message.success(t('mfa.recovery.copied'));
    } catch {
      // no clipboard (an insecure origin): the codes stay on screen to be copied by hand
    }
  };
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'atrium-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <div className="mfa-recovery">
      <Alert type="warning" content={t('mfa.recovery.once')} />
      <ol className="mfa-recovery-codes" aria-label={t('mfa.recovery.list')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <Space wrap>
        <Button icon={<IconCopy />} onClick={() => void copy()}>
          {t('mfa.recovery.copy')}
        </Button>
        <Button icon={<IconDownload />} onClick={download}>
          {t('mfa.recovery.download')}
        </Button>
        <Button type="primary" onClick={onDone}>
          {t('mfa.recovery.saved')}
        </Button>
      </Space>
    </div>
  );
}
