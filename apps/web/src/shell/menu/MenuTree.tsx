import { Menu } from '@arco-design/web-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { MenuNode } from '../../services/routes';
import { MenuIcon } from './icons';
import { firstLeaf, useMenu } from './useMenu';

type Props = {
  mode?: 'vertical' | 'horizontal' | 'pop';
  /**
   * The menu split in two, as in top-menu mode: `sections` is the first level alone (a section opens
   * its first page), `section` the children of the section the current page belongs to.
   */
  part?: 'sections' | 'section';
  collapsed?: boolean;
  ariaLabel: string;
  onNavigate?: () => void;
};

const isLink = (node: MenuNode) => Boolean(node.meta.link) || /^https?:\/\//.test(node.path);

/** The menu (side, top or drawer). Keys are route names; external entries open in a new tab. */
export function MenuTree({ mode = 'vertical', part, collapsed, ariaLabel, onNavigate }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const menu = useMenu();
  const { selectedKey, openKey, sectionKey } = menu;
  const items =
    part === 'sections'
      ? menu.items.map((node) => ({ ...node, children: undefined }))
      : part === 'section'
        ? (menu.items.find((node) => node.name === sectionKey)?.children ?? [])
        : menu.items;
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
  walk(menu.items);

  const onClickItem = (key: string) => {
    const found = byName.get(key);
    if (!found) return;
    const node = part === 'sections' ? firstLeaf(found) : found;
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
        selectedKeys={part === 'sections' ? (sectionKey ? [sectionKey] : []) : selectedKey ? [selectedKey] : []}
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
