import { createHash, randomUUID } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import { AppError } from '../../errors';
import type { SharedStore } from '../../plugins/external/store';

/** Captcha answers live two minutes and can be tried once. */
export const CAPTCHA_TTL_MS = 2 * 60 * 1000;

export type CaptchaImage = { text: string; data: string };

const answerHash = (text: string) => createHash('sha256').update(text.trim().toLowerCase()).digest('hex');

/**
 * Captchas from svg-captcha; the answer is stored hashed (lower-cased) in the shared store so any
 * instance can check it, and deleted on the first check whatever its outcome.
 */
export class CaptchaService {
  /** Draws one image; tests replace it to know the answer. */
  draw: () => CaptchaImage = () => svgCaptcha.create({ size: 4, noise: 2, color: true, ignoreChars: '0oO1lIi', width: 120, height: 40 });

  constructor(
    private readonly store: SharedStore,
    readonly enabled: boolean,
  ) {}

  async issue(): Promise<{ captchaId: string; image: string }> {
    const { text, data } = this.draw();
    const captchaId = randomUUID();
    await this.store.set(`captcha:${captchaId}`, answerHash(text), CAPTCHA_TTL_MS);
    return { captchaId, image: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}` };
  }

  /** True when the answer matches; the captcha is spent either way. */
  async check(captchaId: string | undefined, code: string | undefined): Promise<boolean> {
    if (!captchaId || !code) return false;
    const stored = await this.store.take(`captcha:${captchaId}`);
    return stored !== null && stored === answerHash(code);
  }

  /** Throws 1002 unless captcha is off or the answer is right. */
  async require(input: { captchaId?: string; code?: string }): Promise<void> {
    if (!this.enabled) return;
    if (!(await this.check(input.captchaId, input.code))) throw new AppError('captchaInvalid');
  }
}
