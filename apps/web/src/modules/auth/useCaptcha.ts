import { useCallback, useEffect, useState } from 'react';
import { authApi } from '../../api/auth';

export type CaptchaState = { enabled: boolean; captchaId?: string; src?: string; refresh: () => void };

function imageSrc(image: string): string {
  return image.startsWith('data:') ? image : `data:image/svg+xml;charset=utf-8,${encodeURIComponent(image)}`;
}

// whether the page came with the captcha's field: the prerendered sign-in page (built with and without
// it, served by the server's CAPTCHA setting) says so on <html data-captcha>; the prerender sets it
let expected: boolean | undefined;
export function expectCaptcha(on: boolean) {
  expected = on;
}
const captchaExpected = () => expected ?? (typeof document !== 'undefined' && document.documentElement.dataset.captcha === 'on');

/** The captcha of the public forms; `enabled` is false when the server runs with CAPTCHA=off. */
export function useCaptcha(): CaptchaState {
  // the field is drawn at once where the page says a captcha comes, so it does not push the form down
  const [state, setState] = useState<Omit<CaptchaState, 'refresh'>>(() => ({ enabled: captchaExpected() }));
  const refresh = useCallback(() => {
    authApi
      .captcha()
      .then((captcha) =>
        setState(captcha.enabled ? { enabled: true, captchaId: captcha.captchaId, src: imageSrc(captcha.image) } : { enabled: false }),
      )
      .catch(() => setState({ enabled: false }));
  }, []);
  useEffect(refresh, [refresh]);
  return { ...state, refresh };
}
