import { existsSync } from 'node:fs';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import QRCode from 'qrcode';
import { charWidth } from '../src/modules/mall/printing/receipt';

// Debian's fonts-noto-cjk; the mono face keeps receipt columns straight
const FONT_FILES = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc',
  '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf',
];
let registered = false;
function registerFonts() {
  if (registered) return;
  registered = true;
  for (const file of FONT_FILES) if (existsSync(file)) GlobalFonts.registerFromPath(file);
}

/** Dots per line as a thermal printer has them: 384 at 58 mm, 576 at 80 mm. */
const DOTS = { 58: 384, 80: 576 } as const;

/**
 * A picture of the receipt as the printer would print it: each column one cell (a CJK character two),
 * `[QR …]` lines drawn as real QR codes, black on white.
 */
export async function receiptPng(text: string, paperWidth: 58 | 80): Promise<Buffer> {
  registerFonts();
  const columns = paperWidth === 80 ? 48 : 32;
  const width = DOTS[paperWidth];
  const margin = 8;
  const cell = (width - 2 * margin) / columns;
  const lineHeight = Math.round(cell * 2.2);
  const lines = text.replace(/\n$/, '').split('\n');
  const qrSize = Math.round(width * 0.45);
  const height =
    margin * 2 + lines.reduce((h, line) => h + (/^\s*\[QR .*\]$/.test(line) ? qrSize + lineHeight / 2 : lineHeight), 0) + lineHeight;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000';
  ctx.textBaseline = 'top';
  ctx.font = `${Math.round(cell * 1.7)}px "Noto Sans Mono CJK SC", "Noto Sans CJK SC", "DejaVu Sans Mono", monospace`;
  let y = margin;
  for (const line of lines) {
    const qr = /^\s*\[QR (.*)\]$/.exec(line);
    if (qr) {
      await drawQr(ctx, qr[1] ?? '', (width - qrSize) / 2, y, qrSize);
      y += qrSize + lineHeight / 2;
      continue;
    }
    let col = 0;
    for (const ch of line) {
      const w = charWidth(ch);
      if (ch !== ' ') ctx.fillText(ch, margin + col * cell, y, w * cell);
      col += w;
    }
    y += lineHeight;
  }
  return canvas.toBuffer('image/png');
}

async function drawQr(ctx: SKRSContext2D, data: string, x: number, y: number, size: number) {
  const qr = QRCode.create(data, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const module = size / n;
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++)
      if (qr.modules.get(r, c)) ctx.fillRect(x + c * module, y + r * module, Math.ceil(module), Math.ceil(module));
}
