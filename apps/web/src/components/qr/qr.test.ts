import { create } from 'qrcode';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkQuality, drawQr, QrError, type QrImageFormat, type QrOptions, qrImageType, scanDefaults } from './qr';

type Rect = { x: number; y: number; w: number; h: number; fill: string };

/** A canvas that records what is drawn on it: enough of one for drawQr. */
function fakeCanvas() {
  const rects: Rect[] = [];
  const ctx = {
    fillStyle: '',
    setTransform: vi.fn(),
    fillRect(x: number, y: number, w: number, h: number) {
      rects.push({ x, y, w, h, fill: this.fillStyle });
    },
  };
  const canvas = { width: 0, height: 0, style: { width: '', height: '' }, getContext: () => ctx };
  return { canvas: canvas as unknown as HTMLCanvasElement, rects };
}

const draw = (text: string, options?: QrOptions) => drawQr(fakeCanvas().canvas, text, options);

describe('QR options', () => {
  beforeEach(() => vi.stubGlobal('window', { devicePixelRatio: 2 }));
  afterEach(() => vi.unstubAllGlobals());

  it('refuses options out of range with a QrError naming the option', () => {
    const cases: [QrOptions, RegExp][] = [
      [{ size: 20 }, /^size/],
      [{ size: 5000 }, /^size/],
      [{ size: Number.NaN }, /^size/],
      [{ margin: -1 }, /^margin/],
      [{ size: 100, margin: 50 }, /^margin/],
      [{ dotScale: 0 }, /^dotScale/],
      [{ dotScale: 1.5 }, /^dotScale/],
      [{ version: 0 }, /^version/],
      [{ version: 41 }, /^version/],
      [{ version: 2.5 }, /^version/],
      [{ logoScale: 1 }, /^logoScale/],
      [{ level: 4 as QrOptions['level'] }, /^level/],
      // a level from untyped input: the library would quietly fall back to M
      [{ level: 'X' as QrOptions['level'] }, /^level/],
      [{ level: 'low' as QrOptions['level'] }, /^level/],
    ];
    for (const [options, message] of cases) {
      expect(() => draw('hello', options), JSON.stringify(options)).toThrow(QrError);
      expect(() => draw('hello', options)).toThrow(message);
    }
  });

  it('refuses empty data, and data too long for the chosen version, as a QrError', () => {
    expect(() => draw('')).toThrow(QrError);
    expect(() => draw('x'.repeat(100), { version: 1 })).toThrow(QrError);
  });

  it("maps the original component's numeric levels (1 = L, 0 = M, 3 = Q, 2 = H); L by default", () => {
    const text = 'https://atrium.test/erp/member/1234567890';
    const versionAt = (level: 'L' | 'M' | 'Q' | 'H') => create(text, { errorCorrectionLevel: level }).version;
    expect(draw(text, { level: 1 }).version).toBe(versionAt('L'));
    expect(draw(text, { level: 0 }).version).toBe(versionAt('M'));
    expect(draw(text, { level: 3 }).version).toBe(versionAt('Q'));
    expect(draw(text, { level: 2 }).version).toBe(versionAt('H'));
    expect(draw(text).version).toBe(versionAt('L'));
    // more correction needs a larger code for the same data
    expect(versionAt('H')).toBeGreaterThan(versionAt('L'));
  });

  it('uses the chosen version, else the smallest that holds the data', () => {
    expect(draw('hi', { version: 10 })).toEqual({ version: 10, modules: 57 });
    expect(draw('hi')).toEqual({ version: 1, modules: 21 });
  });

  it('sizes the canvas for the pixel ratio and draws the code inside the quiet zone', () => {
    const { canvas, rects } = fakeCanvas();
    const { modules } = drawQr(canvas, 'hi', { size: 200, margin: 20, dotScale: 0.5, colorDark: '#111', colorLight: '#eee' });
    expect([canvas.width, canvas.height, canvas.style.width]).toEqual([400, 400, '200px']);
    expect(rects[0]).toEqual({ x: 0, y: 0, w: 200, h: 200, fill: '#eee' });
    const cell = (200 - 40) / modules;
    const modulesDrawn = rects.slice(1);
    expect(modulesDrawn.every((r) => r.fill === '#111' && r.x >= 20 && r.y >= 20 && r.x + r.w <= 180.5 && r.y + r.h <= 180.5)).toBe(true);
    // the finder patterns stay whole; the other modules are drawn at dotScale, centred in their cell
    const corner = modulesDrawn.find((r) => r.x === 20 && r.y === 20);
    expect(corner?.w).toBeCloseTo(cell + 0.25);
    const dots = modulesDrawn.filter((r) => r.w < cell);
    expect(dots.length).toBeGreaterThan(0);
    for (const dot of dots) expect(dot.w).toBeCloseTo(cell / 2);
  });

  it('the scan pages use the spec values: 400 px, margin 20, level M', () => {
    const { canvas } = fakeCanvas();
    expect(() => drawQr(canvas, 'member:42', scanDefaults)).not.toThrow();
    expect(canvas.style.width).toBe('400px');
  });

  it('image quality for exports is between 0 and 1', () => {
    expect(checkQuality(0)).toBe(0);
    expect(checkQuality(0.92)).toBe(0.92);
    expect(checkQuality(1)).toBe(1);
    for (const bad of [-0.1, 1.1, Number.NaN]) expect(() => checkQuality(bad)).toThrow(QrError);
  });
});

describe('QR downloads', () => {
  it('gives PNG without a quality and JPEG with the spec’s quality between 0 and 1', () => {
    expect(qrImageType('png')).toEqual({ mime: 'image/png', extension: 'png' });
    expect(qrImageType('png', 0.3)).toEqual({ mime: 'image/png', extension: 'png' });
    expect(qrImageType('jpeg')).toEqual({ mime: 'image/jpeg', extension: 'jpg', quality: 0.92 });
    expect(qrImageType('jpeg', 0)).toMatchObject({ quality: 0 });
    expect(qrImageType('jpeg', 1)).toMatchObject({ quality: 1 });
    expect(() => qrImageType('jpeg', 1.2)).toThrow(QrError);
    expect(() => qrImageType('jpeg', Number.NaN)).toThrow(/quality/);
    expect(() => qrImageType('gif' as QrImageFormat)).toThrow(/png or jpeg/);
  });
});
