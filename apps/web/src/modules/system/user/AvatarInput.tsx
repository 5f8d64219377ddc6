import { Avatar, Input, Space } from '@arco-design/web-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchGif } from '../../../api/gif';

type Props = { value: unknown; onChange: (value: unknown) => void; placeholder?: string };

/**
 * The avatar address with a preview beside it. An animated GIF is fetched as a blob (spec §7's helper)
 * and shown from an object URL, so an address that answers something else (a sign-in page, an error)
 * says so under the field instead of showing a broken image; other images show as they are.
 */
export function AvatarInput({ value, onChange, placeholder }: Props) {
  const { t } = useTranslation();
  const url = typeof value === 'string' ? value.trim() : '';
  const [preview, setPreview] = useState<{ src: string | null; failed: boolean }>({ src: null, failed: false });
  useEffect(() => {
    if (!/^https?:\/\/|^\//.test(url)) {
      setPreview({ src: null, failed: false });
      return;
    }
    if (!/\.gif(\?|#|$)/i.test(url)) {
      setPreview({ src: url, failed: false });
      return;
    }
    const abort = new AbortController();
    let objectUrl: string | null = null;
    fetchGif(url, { signal: abort.signal })
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setPreview({ src: objectUrl, failed: false });
      })
      .catch(() => {
        if (!abort.signal.aborted) setPreview({ src: null, failed: true });
      });
    return () => {
      abort.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space style={{ width: '100%' }} align="center">
        <Input value={url} onChange={(text) => onChange(text)} placeholder={placeholder} maxLength={500} />
        <Avatar size={32} data-testid="avatar-preview">
          {preview.src ? <img src={preview.src} alt={t('system.user.avatarPreview')} /> : null}
        </Avatar>
      </Space>
      {preview.failed ? (
        <span className="arco-form-message" role="alert" data-testid="avatar-preview-error">
          {t('system.user.avatarNotGif')}
        </span>
      ) : null}
    </Space>
  );
}
