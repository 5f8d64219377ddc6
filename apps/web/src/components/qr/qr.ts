import { create } from 'qrcode';

export type QrLevel = 'L' | 'M' | 'Q' | 'H';

/**
 * The QR component's options with the spec's constants (§9). `level` also takes the original
 * component's numeric levels (1 = L, 0 = M, 3 = Q, 2 = H), whose default was 1.
 */
export type QrOptions = {
  /** canvas size in CSS pixels, quiet zone included (component default 200; the spec's pages use 400) */
  size?: number;
  /** quiet zone around the code, in pixels */
  margin?: number;
  level?: QrLevel | 0 | 1 | 2 | 3;
  /** 1–40; the smallest version that holds the data when omitted */
  version?: number;
  /** each module drawn at this fraction of its cell, in (0, 1] */
  dotScale?: number;
  colorDark?: string;
  colorLight?: string;
  /** an image drawn in the middle (the error correction covers what it hides) */
  logo?: HTMLImageElement | null;
  /** the logo's width as a fraction of the code's */
  logoScale?: number;
  /** white space around the logo, in pixels */
  logoMargin?: number;
  logoCornerRadius?: number;
};

/** The spec's values for the places people scan (member, goods, order, profile). */
export const scanDefaults = { size: 400, margin: 20, level: 'M', logoScale: 0.2, logoMargin: 4, logoCornerRadius: 8 } as const;

const numericLevels: Record<number, QrLevel> = { 1: 'L', 0: 'M', 3: 'Q', 2: 'H' };
const levels: readonly unknown[] = ['L', 'M', 'Q', 'H'];

/** A clear message for options the component cannot honour (shown in place of the code). */
export class QrError extends Error {
  override name = 'QrError';
}

function check(options: QrOptions): Required<Pick<QrOptions, 'size' | 'margin' | 'dotScale'>> & { level: QrLevel } {
  const { size = 200, margin = 20, dotScale = 1, version, logoScale = 0.2 } = options;
  if (!Number.isFinite(size) || size < 21 || size > 4096) throw new QrError(`size must be between 21 and 4096 (got ${size})`);
  if (!Number.isFinite(margin) || margin < 0 || margin * 2 >= size)
    throw new QrError(`margin must be at least 0 and leave room for the code (got ${margin})`);
  if (!(dotScale > 0 && dotScale <= 1)) throw new QrError(`dotScale must be in (0, 1] (got ${dotScale})`);
  if (version !== undefined && !(Number.isInteger(version) && version >= 1 && version <= 40))
    throw new QrError(`version must be an integer from 1 to 40 (got ${version})`);
  if (!(logoScale > 0 && logoScale < 1)) throw new QrError(`logoScale must be in (0, 1) (got ${logoScale})`);
  const raw = options.level ?? 1;
  const level = typeof raw === 'number' ? numericLevels[raw] : levels.includes(raw) ? raw : undefined;
  if (!level) throw new QrError(`level must be L, M, Q or H (or 0–3) (got ${raw})`);
  return { size, margin, dotScale, level };
}

/** Checks an image quality for `toDataURL` exports: between 0 and 1 (spec §9). */
export function checkQuality(quality: number): number {
  if (!(quality >= 0 && quality <= 1)) throw new QrError(`image quality must be between 0 and 1 (got ${quality})`);
  return quality;
}

export type QrImageFormat = 'png' | 'jpeg';
export const qrImageFormats: readonly QrImageFormat[] = ['png', 'jpeg'];

/**
 * What a download of the code is: PNG is lossless and takes no quality; JPEG takes the spec's image
 * quality, between 0 and 1 (0.92, the browsers' own default, when none is given).
 */
export function qrImageType(format: QrImageFormat, quality = 0.92): { mime: string; extension: string; quality?: number } {
  if (format === 'png') return { mime: 'image/png', extension: 'png' };
  if (format === 'jpeg') return { mime: 'image/jpeg', extension: 'jpg', quality: checkQuality(quality) };
  throw new QrError(`image format must be png or jpeg (got ${String(format)})`);
}

/** The drawn code as a file: JPEG has no transparency, so the code is put on its light colour first. */
export function qrImage(canvas: HTMLCanvasElement, format: QrImageFormat, quality?: number, colorLight = '#ffffff'): string {
  const type = qrImageType(format, quality);
  if (type.mime === 'image/png') return canvas.toDataURL(type.mime);
  const flat = document.createElement('canvas');
  flat.width = canvas.width;
  flat.height = canvas.height;
  const ctx = flat.getContext('2d');
  if (!ctx) throw new QrError('canvas 2D context unavailable');
  ctx.fillStyle = colorLight;
  ctx.fillRect(0, 0, flat.width, flat.height);
  ctx.drawImage(canvas, 0, 0);
  return flat.toDataURL(type.mime, type.quality);
}

/** The product's mark, for the middle of the codes people scan (sized, so every browser draws it). */
export const qrLogo = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#165DFF"/><path d="M9 24 16 7l7 17h-3.4l-1.5-3.8h-4.3L12.4 24Zm5.9-6.6h2.4L16 14.1Z" fill="#fff"/></svg>',
)}`;

/**
 * Encodes `text` with the `qrcode` library and draws its modules on `canvas`. Throws a QrError when an
 * option is out of range or the data does not fit the chosen version (the library's reason kept).
 */
export function drawQr(canvas: HTMLCanvasElement, text: string, options: QrOptions = {}): { version: number; modules: number } {
  const { size, margin, dotScale, level } = check(options);
  if (!text) throw new QrError('there is no data to encode');
  let code: ReturnType<typeof create>;
  try {
    code = create(text, { errorCorrectionLevel: level, ...(options.version ? { version: options.version } : {}) });
  } catch (error) {
    throw new QrError((error as Error).message);
  }
  const count = code.modules.size;
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(size * ratio);
  canvas.height = Math.round(size * ratio);
  canvas.style.width = `${size}px`;
  canvas.style.height = `${size}px`;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new QrError('this browser cannot draw on a canvas');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.fillStyle = options.colorLight ?? '#ffffff';
  ctx.fillRect(0, 0, size, size);
  const cell = (size - margin * 2) / count;
  const dot = cell * dotScale;
  const inset = (cell - dot) / 2;
  ctx.fillStyle = options.colorDark ?? '#000000';
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (!code.modules.get(row, col)) continue;
      // finder patterns stay whole: scanners locate the code by them
      const finder = (row < 7 && (col < 7 || col >= count - 7)) || (row >= count - 7 && col < 7);
      const d = finder ? cell : dot;
      const o = finder ? 0 : inset;
      // a hair of overlap so adjacent full-size modules do not show seams after scaling
      const bleed = d === cell ? 0.5 / ratio : 0;
      ctx.fillRect(margin + col * cell + o, margin + row * cell + o, d + bleed, d + bleed);
    }
  }
  if (options.logo) drawLogo(ctx, options.logo, size, options);
  return { version: code.version, modules: count };
}

function drawLogo(ctx: CanvasRenderingContext2D, logo: HTMLImageElement, size: number, options: QrOptions) {
  const { logoScale = 0.2, logoMargin = 0, logoCornerRadius = 8 } = options;
  const width = size * logoScale;
  const x = (size - width) / 2;
  const frame = width + logoMargin * 2;
  const fx = x - logoMargin;
  ctx.save();
  ctx.fillStyle = options.colorLight ?? '#ffffff';
  ctx.beginPath();
  ctx.roundRect(fx, fx, frame, frame, logoCornerRadius);
  ctx.fill();
  ctx.beginPath();
  ctx.roundRect(x, x, width, width, Math.max(0, logoCornerRadius - logoMargin));
  ctx.clip();
  ctx.drawImage(logo, x, x, width, width);
  ctx.restore();
}
