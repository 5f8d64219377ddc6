import type { MenuRoute } from '@atrium/contracts/auth';
import { describe, expect, it } from 'vitest';
import { type Access, buildMenu, canVisit, findLeafByName, findLeafByPath, firstPermittedPath, type LeafRoute, leafRoutes } from './routes';

const leaf = (name: string): LeafRoute => {
  const route = findLeafByName(name);
  if (!route) throw new Error(`no route ${name}`);
  return route;
};
const menuItem = (name: string, path: string, children?: MenuRoute[]): MenuRoute => ({ name, path, meta: { locale: name }, children });
const byRole = (role: string): Access => ({ role, menuFromServer: false, serverMenu: [] });
const fromServer = (role: string, serverMenu: MenuRoute[]): Access => ({ role, menuFromServer: true, serverMenu });

describe('findLeafByPath', () => {
  it('finds the page of a path, its parameters matched', () => {
    expect(findLeafByPath('/system/user')?.name).toBe('systemUser');
    expect(findLeafByPath('/system/user/detail/42')?.name).toBe('systemUserDetail');
    expect(findLeafByPath('/mall/goods/update/7')?.name).toBe('mallGoodsUpdate');
    // the page under a parent that hides its children, not the parent
    expect(findLeafByPath('/staging')?.name).toBe('Staging');
  });

  it('matches whole paths only', () => {
    expect(findLeafByPath('/system')).toBeUndefined();
    expect(findLeafByPath('/system/user/detail')).toBeUndefined();
    expect(findLeafByPath('/system/user/extra')).toBeUndefined();
    expect(findLeafByPath('/nowhere')).toBeUndefined();
  });

  it('leaves external links out of the pages', () => {
    expect(leafRoutes.some((route) => /^https?:/.test(route.path))).toBe(false);
    expect(findLeafByName('arcoWebsite')).toBeUndefined();
  });

  it('gives each page its parent, whose roles apply too', () => {
    expect(leaf('DataAnalysis').parent?.name).toBe('visualization');
  });
});

describe('canVisit', () => {
  it("follows the route's roles: '*' is everyone, a list is its roles", () => {
    expect(canVisit(leaf('Workplace'), byRole('user'))).toBe(true);
    expect(canVisit(leaf('Monitor'), byRole('user'))).toBe(false);
    expect(canVisit(leaf('Monitor'), byRole('admin'))).toBe(true);
  });

  it("applies the parent's roles to a child open to everyone", () => {
    const child: LeafRoute = { ...leaf('Workplace'), parent: { ...leaf('Monitor'), name: 'adminsOnly', children: [] } };
    expect(canVisit(child, byRole('user'))).toBe(false);
    expect(canVisit(child, byRole('admin'))).toBe(true);
  });

  it('with the menu from the server, a page must also be in that menu (at any depth)', () => {
    const menu = [menuItem('system', '/system', [menuItem('systemUser', '/system/user')])];
    expect(canVisit(leaf('systemUser'), fromServer('user', menu))).toBe(true);
    expect(canVisit(leaf('systemRole'), fromServer('user', menu))).toBe(false);
    // the server menu does not lift the route's own roles
    expect(canVisit(leaf('Monitor'), fromServer('user', [menuItem('Monitor', '/dashboard/monitor')]))).toBe(false);
  });
});

describe('firstPermittedPath', () => {
  it('is the first page in menu order the user may open: the staging page for everyone', () => {
    expect(firstPermittedPath(byRole('user'))).toBe('/staging');
    expect(firstPermittedPath(byRole('admin'))).toBe('/staging');
  });

  it('with a server menu, the page of the highest-ordered parent it grants', () => {
    // system (order 7) before list (2) and dashboard (0)
    const menu = [
      menuItem('Workplace', '/dashboard/workplace'),
      menuItem('SearchTable', '/list/search-table'),
      menuItem('systemPost', '/system/post'),
    ];
    expect(firstPermittedPath(fromServer('user', menu))).toBe('/system/post');
  });

  it('never lands on a hidden page or one that needs a parameter', () => {
    const menu = [menuItem('systemUserDetail', '/system/user/detail/:id'), menuItem('Workplace', '/dashboard/workplace')];
    expect(firstPermittedPath(fromServer('user', menu))).toBe('/dashboard/workplace');
  });

  it('is undefined when nothing is granted', () => {
    expect(firstPermittedPath(fromServer('user', [menuItem('Monitor', '/dashboard/monitor')]))).toBeUndefined();
  });
});

describe('buildMenu', () => {
  it("from the catalogue: the role's sections, larger order first, hidden pages left out", () => {
    const menu = buildMenu(byRole('user'));
    const names = menu.map((node) => node.name);
    expect(names).not.toContain('visualization');
    expect(names).not.toContain('form');
    // staging (10) first, the external links (9, 8) next, the dashboard (0) last
    expect(names.slice(0, 3)).toEqual(['Staging', 'faq', 'arcoWebsite']);
    expect(names.at(-1)).toBe('dashboard');
    const system = menu.find((node) => node.name === 'system');
    expect(system?.children?.map((c) => c.name)).not.toContain('systemUserDetail');
    // the exception section keeps the pages the role may open
    expect(menu.find((node) => node.name === 'exception')?.children?.map((c) => c.name)).toEqual(['404', '500']);
  });

  it('a parent that hides its children opens its first child', () => {
    const staging = buildMenu(byRole('user'))[0];
    expect(staging).toMatchObject({ name: 'Staging', path: '/staging', children: undefined });
  });

  it("from the server: the server's tree as it is, a parent whose children are all hidden dropped", () => {
    const hidden = { ...menuItem('systemUserDetail', '/system/user/detail/:id'), meta: { locale: 'x', hideInMenu: true } };
    const menu = buildMenu(
      fromServer('user', [
        { ...menuItem('list', '/list', [menuItem('Card', '/list/card')]), meta: { locale: 'menu.list', order: 2 } },
        { ...menuItem('system', '/system', [hidden]), meta: { locale: 'menu.system', order: 7 } },
        {
          ...menuItem('dashboard', '/dashboard', [menuItem('Workplace', '/dashboard/workplace')]),
          meta: { locale: 'menu.dashboard', order: 5 },
        },
      ]),
    );
    expect(menu.map((node) => node.name)).toEqual(['dashboard', 'list']);
  });
});
