import { Menu } from '@arco-design/web-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { MenuNode } from '../../app/routes';
import { MenuIcon } from './icons';
import { useMenu } from './useMenu';

type Props = {
  mode?: 'vertical' | 'horizontal' | 'pop';
  collapsed?: boolean;
  ariaLabel: string;
  onNavigate?: () => void;
};

const isLink = (node: MenuNode) => Boolean(node.meta.link) || /^https?:\/\//.test(node.path);

/** The menu (side, top or drawer). Keys are route names; external entries open in a new tab. */
export function MenuTree({ mode = 'vertical', collapsed, ariaLabel, onNavigate }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { items, selectedKey, openKey } = useMenu();
  const [openKeys, setOpenKeys] = useState<string[]>(openKey ? [openKey] : []);

  useEffect(() => {
    if (openKey) setOpenKeys((keys) => (keys.includes(openKey) ? keys : [...keys, openKey]));
  }, [openKey]);

  const byName = new Map<string, MenuNode>();
  const walk = (nodes: MenuNode[]) => {
    for (const node of nodes) {
      byName.set(node.name, node);
      if (node.children) walk(node.children);
    }
  };
  walk(items);

  const onClickItem = (key: string) => {
    const node = byName.get(key);
    if (!node) return;
    if (isLink(node)) window.open(node.meta.link ?? node.path, '_blank', 'noopener');
    else navigate(node.path);
    onNavigate?.();
  };

  const label = (node: MenuNode) => (node.meta.locale ? t(node.meta.locale) : node.name);
  const render = (nodes: MenuNode[], level: number) =>
    nodes.map((node) =>
      node.children?.length ? (
        <Menu.SubMenu
          key={node.name}
          title={
            <>
              <MenuIcon name={node.meta.icon} />
              <span title={label(node)}>{label(node)}</span>
            </>
          }
        >
          {render(node.children, level + 1)}
        </Menu.SubMenu>
      ) : (
        <Menu.Item key={node.name}>
          {level === 0 ? <MenuIcon name={node.meta.icon} /> : null}
          {/* an English label cut at the menu's width reads whole on hover */}
          <span title={label(node)}>{label(node)}</span>
        </Menu.Item>
      ),
    );

  return (
    <nav aria-label={ariaLabel} className={`menu-nav menu-nav-${mode}`}>
      <Menu
        mode={mode}
        collapse={collapsed}
        selectedKeys={selectedKey ? [selectedKey] : []}
        openKeys={openKeys}
        onClickSubMenu={(_key, keys) => setOpenKeys(keys)}
        onClickMenuItem={onClickItem}
        autoOpen={false}
        ellipsis={mode === 'horizontal'}
      >
        {render(items, 0)}
      </Menu>
    </nav>
  );
}
