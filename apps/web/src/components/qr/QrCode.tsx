import { Alert } from '@arco-design/web-react';
import { useEffect, useRef, useState } from 'react';
import { drawQr, type QrOptions } from './qr';
import './qr.css';

type Props = QrOptions & {
  value: string;
  /** the logo's URL (same origin or data:), drawn in the middle */
  logoSrc?: string;
  /** accessible name of the picture */
  label?: string;
  className?: string;
};

/**
 * A QR code drawn on a canvas (encoded by the `qrcode` library). Options out of range, or data too
 * long for the chosen version, show the reason in place of the code instead of failing silently.
 */
export function QrCode({ value, logoSrc, label, className, ...options }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [logo, setLogo] = useState<HTMLImageElement | null>(null);
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

  return (
    <div className={className} data-qr-value={error ? undefined : value}>
      <canvas ref={canvas} role="img" aria-label={label ?? value} style={{ display: error ? 'none' : 'block' }} />
      {error && <Alert type="error" content={error} data-testid="qr-error" />}
    </div>
  );
}
