import { Dropdown, Menu, Message } from '@arco-design/web-react';
import { IconLanguage } from '@arco-design/web-react/icon';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { changeLocale, type Locale } from '../../locale';
import { IconButton } from './IconButton';

const languages: { value: Locale; label: string }[] = [
  { value: 'zh-CN', label: '中文' },
  { value: 'en-US', label: 'English' },
];

export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const choose = async (locale: string) => {
    if (locale === i18n.language) return;
    await changeLocale(locale as Locale);
    // the global t: this component's t still speaks the language it was rendered in
    Message.info(i18next.t('navbar.language.changed'));
  };
  return (
    <Dropdown
      trigger="click"
      position="br"
      droplist={
        <Menu onClickMenuItem={(key) => void choose(key)} selectedKeys={[i18n.language]}>
          {languages.map((lang) => (
            <Menu.Item key={lang.value} lang={lang.value}>
              {lang.label}
            </Menu.Item>
          ))}
        </Menu>
      }
    >
      <IconButton label={t('navbar.language')} icon={<IconLanguage />} tooltip={false} title={t('navbar.language')} />
    </Dropdown>
  );
}
