import { Alert, Button, Drawer, InputNumber, Message, Switch } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { type AppSettings, pickSettings, useSettings } from '../../services/settings';

type BooleanKey = { [K in keyof AppSettings]: AppSettings[K] extends boolean ? K : never }[keyof AppSettings];

const contentToggles: { key: BooleanKey; label: string }[] = [
  { key: 'navbar', label: 'settings.navbar' },
  { key: 'menu', label: 'settings.menu' },
  { key: 'topMenu', label: 'settings.topMenu' },
  { key: 'footer', label: 'settings.footer' },
  { key: 'tabBar', label: 'settings.tabBar' },
  { key: 'menuFromServer', label: 'settings.menuFromServer' },
];

/** Spec 9's page settings; every change applies at once and is kept in this browser. */
export function SettingsDrawer({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const settings = useSettings();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(pickSettings(settings), null, 2));
      Message.success(t('settings.copySettings.message'));
    } catch {
      Message.error(t('settings.copySettings.failed'));
    }
  };

  const row = (id: string, label: string, control: React.ReactNode) => (
    <div className="settings-row" key={id}>
      <label htmlFor={id}>{label}</label>
      {control}
    </div>
  );

  return (
    <Drawer
      width={300}
      title={t('settings.title')}
      visible={visible}
      onCancel={onClose}
      footer={
        <div className="settings-footer">
          <Button onClick={() => settings.reset()}>{t('settings.reset')}</Button>
          <Button type="primary" onClick={() => void copy()}>
            {t('settings.copySettings')}
          </Button>
        </div>
      }
    >
      <section className="settings-block" aria-labelledby="settings-content">
        <h3 id="settings-content">{t('settings.content')}</h3>
        {contentToggles.map(({ key, label }) =>
          row(
            `setting-${key}`,
            t(label),
            <Switch id={`setting-${key}`} size="small" checked={settings[key]} onChange={(value) => settings.update({ [key]: value })} />,
          ),
        )}
        {row(
          'setting-menuWidth',
          t('settings.menuWidth'),
          <InputNumber
            id="setting-menuWidth"
            size="small"
            min={120}
            max={400}
            step={10}
            value={settings.menuWidth}
            onChange={(value) => typeof value === 'number' && settings.update({ menuWidth: value })}
            style={{ width: 96 }}
          />,
        )}
      </section>
      <section className="settings-block" aria-labelledby="settings-other">
        <h3 id="settings-other">{t('settings.otherSettings')}</h3>
        {row(
          'setting-colorWeak',
          t('settings.colorWeak'),
          <Switch
            id="setting-colorWeak"
            size="small"
            checked={settings.colorWeak}
            onChange={(value) => settings.update({ colorWeak: value })}
          />,
        )}
      </section>
      <Alert content={t('settings.alertContent')} />
    </Drawer>
  );
}
