import i18next, { type i18n } from 'i18next';

/**
 * A fresh i18next instance, set up like the app's (flat dotted keys, `{{name}}` placeholders), holding the
 * strings of `modules` (e.g. `() => import('../src/crud/messages')`) and of every message module loaded
 * before in this test file.
 */
export async function testI18n(lng: 'zh-CN' | 'en-US', ...modules: (() => Promise<unknown>)[]): Promise<i18n> {
  const holder = globalThis as { __atriumMessages?: { pending: [string, Record<string, string>][] } };
  // message modules register into this holder until the app connects i18next (which tests never do): every
  // bundle registered so far waits there, whichever test loaded it first
  holder.__atriumMessages ??= { pending: [] };
  for (const load of modules) await load();
  const resources: Record<string, { translation: Record<string, string> }> = {};
  for (const [lang, bundle] of holder.__atriumMessages.pending) {
    resources[lang] = { translation: { ...resources[lang]?.translation, ...bundle } };
  }
  const instance = i18next.createInstance();
  await instance.init({
    lng,
    fallbackLng: false,
    resources,
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}
