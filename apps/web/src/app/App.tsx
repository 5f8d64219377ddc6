import { ConfigProvider } from '@arco-design/web-react';
import zhCN from '@arco-design/web-react/es/locale/zh-CN';
import i18next from 'i18next';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { ReleaseNotice } from '../components/ReleaseNotice';
import { router } from './router';

type ArcoLocale = typeof zhCN;

// Arco's English strings come with our English ones, only when English is chosen
async function arcoLocaleFor(language: string): Promise<ArcoLocale> {
  if (language === 'en-US') return (await import('@arco-design/web-react/es/locale/en-US')).default;
  return zhCN;
}

export function App() {
  const [arcoLocale, setArcoLocale] = useState<ArcoLocale>(zhCN);
  useEffect(() => {
    let alive = true;
    const apply = (language: string) =>
      void arcoLocaleFor(language).then((locale) => {
        if (alive) setArcoLocale(locale);
      });
    apply(i18next.language);
    i18next.on('languageChanged', apply);
    return () => {
      alive = false;
      i18next.off('languageChanged', apply);
    };
  }, []);
  return (
    <ConfigProvider locale={arcoLocale}>
      <RouterProvider router={router} />
      <ReleaseNotice />
    </ConfigProvider>
  );
}
