import { erpMenuLabels } from '@atrium/contracts/erp/pages';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { connectMessages } from './registry';
import { zhCN } from './zh-CN';

export type Locale = 'zh-CN' | 'en-US';
export const LOCALE_STORAGE_KEY = 'arco-lang';
export const DEFAULT_LOCALE: Locale = 'zh-CN';

// Our own record of loaded bundles: modules add their strings to either language at any time, so
// "has a bundle" does not mean the app's strings are there
const loaded = new Set<Locale>();

export function storedLocale(): Locale {
  const value = localStorage.getItem(LOCALE_STORAGE_KEY);
  return value === 'en-US' || value === 'zh-CN' ? value : DEFAULT_LOCALE;
}

// English is loaded only when it is used, so the Chinese sign-in page carries one language. The ERP
// menu's labels are written with its pages in the contracts (the route catalogue has them already).
async function loadResources(locale: Locale) {
  if (locale === 'en-US') return { ...(await import('./en-US')).enUS, ...erpMenuLabels.en };
  return { ...zhCN, ...erpMenuLabels.zh };
}

export async function initI18n(): Promise<typeof i18next> {
  const locale = storedLocale();
  await i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: 'en-US',
    resources: { [locale]: { translation: await loadResources(locale) } },
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  loaded.add(locale);
  connectMessages((lang, bundle) => i18next.addResources(lang, 'translation', bundle));
  document.documentElement.lang = locale;
  return i18next;
}

export async function changeLocale(locale: Locale): Promise<void> {
  if (!loaded.has(locale)) {
    i18next.addResourceBundle(locale, 'translation', await loadResources(locale), true, false);
    loaded.add(locale);
  }
  await i18next.changeLanguage(locale);
  localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  document.documentElement.lang = locale;
}
