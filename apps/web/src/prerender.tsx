// The sign-in page as HTML, rendered at build time (build/prerender-login.ts) from the components the
// browser then hydrates (main.tsx): the same tree as App's first render on /login — Arco's provider with
// its Chinese strings, the router on the sign-in route, the release notice (nothing yet).
import { ConfigProvider } from '@arco-design/web-react';
import zhCN from '@arco-design/web-react/es/locale/zh-CN';
import i18next from 'i18next';
import { renderToString } from 'react-dom/server';
import { initReactI18next } from 'react-i18next';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { TOKEN_KEY } from './api/storage';
import { ReleaseNotice } from './components/ReleaseNotice';
import { LOCALE_STORAGE_KEY, type Locale } from './locale';
import { enUS } from './locale/en-US';
import { zhCN as zhCNMessages } from './locale/zh-CN';
import { HELD_SUBMIT, LoginPage } from './modules/auth/login/LoginPage';
import { expectCaptcha } from './modules/auth/useCaptcha';
import { SETTINGS_STORAGE_KEY } from './services/settings';

const routes = [{ path: '/login', Component: LoginPage }];

/** The markup of #root for /login in one language, with or without the captcha's field. */
export async function renderLogin(locale: Locale, captcha: boolean): Promise<string> {
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      lng: locale,
      fallbackLng: 'en-US',
      resources: { 'zh-CN': { translation: zhCNMessages }, 'en-US': { translation: enUS } },
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  await i18next.changeLanguage(locale);
  expectCaptcha(captcha);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/login'));
  if (context instanceof Response) throw new Error('the sign-in route answered a redirect');
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <ConfigProvider locale={zhCN}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
      <ReleaseNotice />
    </ConfigProvider>,
  );
}

type BootKeys = { token: string; locale: string; settings: string; template: string; pending: string };

/**
 * Runs in <head>, before the form exists (a classic script, so no module features): until React has
 * taken the form over, a submit is held (the browser would send a GET to this page and reload it) and
 * marked on <html>; the page sends it once it can (LoginPage). In <head> because a quick hand (or a
 * password manager) can submit the form the moment it is shown, before a script after it has run.
 */
function hold(keys: BootKeys) {
  document.addEventListener(
    'submit',
    (event) => {
      const root = document.getElementById('root');
      const taken = Boolean(root && Object.keys(root).some((key) => key.startsWith('__reactContainer')));
      if (taken || !(event.target as Element).classList.contains('login-form')) return;
      event.preventDefault();
      document.documentElement.dataset[keys.pending] = 'submit';
    },
    true,
  );
}

/**
 * Runs in the page right after #root, before the first paint: the English form in place of the Chinese
 * one when English was chosen, the dark theme and colour-weak mode as the settings say; a signed-in
 * browser gets an empty root instead of a form it would leave at once.
 */
function boot(keys: BootKeys) {
  const root = document.getElementById('root');
  try {
    if (localStorage.getItem(keys.token)) {
      if (root) root.textContent = '';
      return;
    }
    if (localStorage.getItem(keys.locale) === 'en-US') {
      const english = document.getElementById(keys.template);
      if (root && english) root.innerHTML = english.innerHTML;
      document.documentElement.lang = 'en-US';
    }
    const settings = JSON.parse(localStorage.getItem(keys.settings) ?? 'null')?.state;
    if (settings?.theme === 'dark') document.body.setAttribute('arco-theme', 'dark');
    if (settings?.colorWeak) document.body.style.filter = 'invert(80%)';
  } catch {
    // storage refused (privacy mode): the Chinese light page, as the app's defaults
  }
}

export const ENGLISH_TEMPLATE_ID = 'login-en-US';

/** The source of one of the page's two scripts: `hold` for <head>, `boot` for right after #root. */
export function bootScript(part: 'hold' | 'boot'): string {
  const keys: BootKeys = {
    token: TOKEN_KEY,
    locale: LOCALE_STORAGE_KEY,
    settings: SETTINGS_STORAGE_KEY,
    template: ENGLISH_TEMPLATE_ID,
    pending: HELD_SUBMIT,
  };
  return `(${(part === 'hold' ? hold : boot).toString()})(${JSON.stringify(keys)});\n`;
}
