import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLocale, type Locale } from '../../locale';

const languages: { value: Locale; label: string }[] = [
  { value: 'zh-CN', label: '中文' },
  { value: 'en-US', label: 'English' },
];

/** The frame of the public screens: a brand panel and the form card. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="auth-page">
      <aside className="auth-banner" aria-hidden="true">
        <div className="auth-brand">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>{t('app.name')}</span>
        </div>
        <div className="auth-banner-text">
          <h2>{t('login.banner.title')}</h2>
          <p>{t('login.banner.text')}</p>
        </div>
        <div className="auth-banner-art">
          <span />
          <span />
          <span />
        </div>
      </aside>
      <main className="auth-main">
        <nav className="auth-lang" aria-label={t('navbar.language')}>
          {languages.map((lang) => (
            <button
              key={lang.value}
              type="button"
              className={i18n.language === lang.value ? 'auth-lang-item active' : 'auth-lang-item'}
              aria-pressed={i18n.language === lang.value}
              lang={lang.value}
              onClick={() => void changeLocale(lang.value)}
            >
              {lang.label}
            </button>
          ))}
        </nav>
        <section className="auth-card" aria-labelledby="auth-title">
          <h1 id="auth-title">{title}</h1>
          {subtitle ? <p className="auth-subtitle">{subtitle}</p> : null}
          {children}
        </section>
        <footer className="auth-footer">{t('footer.text')}</footer>
      </main>
    </div>
  );
}
