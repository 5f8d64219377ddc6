import { useCallback, useEffect, useState } from 'react';
import { authApi } from '../../api/auth';

export type CaptchaState = { enabled: boolean; captchaId?: string; src?: string; refresh: () => void };

function imageSrc(image: string): string {
  return image.startsWith('data:') ? image : `data:image/svg+xml;charset=utf-8,${encodeURIComponent(image)}`;
}

/** The captcha of the public forms; `enabled` is false when the server runs with CAPTCHA=off. */
export function useCaptcha(): CaptchaState {
  const [state, setState] = useState<Omit<CaptchaState, 'refresh'>>({ enabled: false });
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
