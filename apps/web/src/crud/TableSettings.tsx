import { Button, Checkbox, Dropdown, Menu, Popover, Space, Tooltip } from '@arco-design/web-react';
import { IconLineHeight, IconRefresh, IconSettings } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';

export type Density = 'default' | 'middle' | 'small';

type Props = {
  columns: { key: string; title: string }[];
  visible: string[];
  onVisibleChange: (keys: string[]) => void;
  density: Density;
  onDensityChange: (density: Density) => void;
  onRefresh: () => void;
};

/** Refresh, density and column show/hide — the icons at the right of every table toolbar. */
export function TableSettings({ columns, visible, onVisibleChange, density, onDensityChange, onRefresh }: Props) {
  const { t } = useTranslation();
  return (
    <Space>
      <Tooltip content={t('crud.refresh')}>
        <Button icon={<IconRefresh />} onClick={onRefresh} aria-label={t('crud.refresh')} />
      </Tooltip>
      <Dropdown
        droplist={
          <Menu selectedKeys={[density]} onClickMenuItem={(key) => onDensityChange(key as Density)}>
            {(['default', 'middle', 'small'] as const).map((d) => (
              <Menu.Item key={d}>{t(`crud.density.${d}`)}</Menu.Item>
            ))}
          </Menu>
        }
      >
        <Button icon={<IconLineHeight />} aria-label={t('crud.density')} />
      </Dropdown>
      <Popover
        trigger="click"
        position="br"
        content={
          <Checkbox.Group direction="vertical" value={visible} onChange={(keys) => onVisibleChange(keys as string[])}>
            {columns.map((c) => (
              <Checkbox key={c.key} value={c.key}>
                {t(c.title)}
              </Checkbox>
            ))}
          </Checkbox.Group>
        }
      >
        <Button icon={<IconSettings />} aria-label={t('crud.columns')} />
      </Popover>
    </Space>
  );
}
