import { useMemo } from 'react';
import { buildMenu, findLeafByName, type MenuNode } from '../../services/routes';
import { useSession } from '../../services/session';
import { useSettings } from '../../services/settings';
import { useCurrentRoute } from '../useCurrentRoute';

/** The menu tree for the signed-in user, with the keys to highlight and open for the current page. */
export function useMenu(): { items: MenuNode[]; selectedKey?: string; openKey?: string; sectionKey?: string } {
  const role = useSession((s) => s.role);
  const serverMenu = useSession((s) => s.serverMenu);
  const menuFromServer = useSettings((s) => s.menuFromServer);
  const route = useCurrentRoute();
  const items = useMemo(
    () => buildMenu({ role, serverMenu, menuFromServer: menuFromServer && serverMenu.length > 0 }),
    [role, serverMenu, menuFromServer],
  );
  // detail pages light up the menu entry they belong to
  const selectedKey = route?.meta.activeMenu ?? route?.name;
  const openKey = selectedKey ? (findLeafByName(selectedKey)?.parent?.name ?? route?.parent?.name) : undefined;
  const sectionKey = selectedKey ? items.find((node) => contains(node, selectedKey))?.name : undefined;
  return { items, selectedKey, openKey, sectionKey };
}

const contains = (node: MenuNode, name: string): boolean =>
  node.name === name || Boolean(node.children?.some((child) => contains(child, name)));

/** The first page a section opens (its first leaf), for the top menu's sections. */
export function firstLeaf(node: MenuNode): MenuNode {
  const child = node.children?.[0];
  return child ? firstLeaf(child) : node;
}

/** Every page the menu offers (external links left out), for shortcuts. */
export function useMenuPages(): (MenuNode & { section?: MenuNode })[] {
  const { items } = useMenu();
  return useMemo(() => {
    const out: (MenuNode & { section?: MenuNode })[] = [];
    for (const node of items) {
      if (node.meta.link || /^https?:/.test(node.path)) continue;
      if (node.children?.length) for (const child of node.children) out.push({ ...child, section: node });
      else out.push(node);
    }
    return out;
  }, [items]);
}
