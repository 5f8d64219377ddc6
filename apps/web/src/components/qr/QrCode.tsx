import { Alert, Button, InputNumber, Space } from '@arco-design/web-react';
import { IconDownload } from '@arco-design/web-react/icon';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { drawQr, type QrImageFormat, type QrOptions, qrImage, qrImageFormats, qrImageType } from './qr';
import './qr.css';

type Props = QrOptions & {
  value: string;
  /** the logo's URL (same origin or data:), drawn in the middle */
  logoSrc?: string;
  /** accessible name of the picture */
  label?: string;
  className?: string;
  /** offers the code as a PNG or JPEG file (with the JPEG quality, 0–1) under this name, without extension */
  downloadName?: string;
};

/**
 * A QR code drawn on a canvas (encoded by the `qrcode` library). Options out of range, or data too
 * long for the chosen version, show the reason in place of the code instead of failing silently.
 */
export function QrCode({ value, logoSrc, label, className, downloadName, ...options }: Props) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [logo, setLogo] = useState<HTMLImageElement | null>(null);
  const [quality, setQuality] = useState(0.92);
  const key = JSON.stringify(options);

  useEffect(() => {
    if (!logoSrc) {
      setLogo(null);
      return;
    }
    const image = new Image();
    image.onload = () => setLogo(image);
    image.onerror = () => setLogo(null);
    image.src = logoSrc;
  }, [logoSrc]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the options object
  useEffect(() => {
    if (!canvas.current) return;
    try {
      drawQr(canvas.current, value, { ...options, logo });
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [value, key, logo]);

  const download = (format: QrImageFormat) => {
    if (!canvas.current || !downloadName) return;
    try {
      const link = document.createElement('a');
      link.href = qrImage(canvas.current, format, quality, options.colorLight);
      link.download = `${downloadName}.${qrImageType(format, quality).extension}`;
      link.click();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <div className={className} data-qr-value={error ? undefined : value}>
      <canvas ref={canvas} role="img" aria-label={label ?? value} style={{ display: error ? 'none' : 'block' }} />
      {error && <Alert type="error" content={error} data-testid="qr-error" />}
      {downloadName && !error ? (
        <Space className="qr-download" wrap>
          {qrImageFormats.map((format) => (
            <Button
              key={format}
              size="small"
              icon={<IconDownload />}
              onClick={() => download(format)}
              data-testid={`qr-download-${format}`}
            >
              {t(`qr.download.${format}`)}
            </Button>
          ))}
          <span>
            {t('qr.quality')}{' '}
            <InputNumber
              size="small"
              min={0}
              max={1}
              step={0.05}
              precision={2}
              value={quality}
              onChange={(v) => setQuality(typeof v === 'number' ? v : 0.92)}
              style={{ width: 90 }}
              aria-label={t('qr.quality')}
              data-testid="qr-quality"
            />
          </span>
        </Space>
      ) : null}
    </div>
  );
}
