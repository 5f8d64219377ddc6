import type { MenuRoute } from '@atrium/contracts/auth';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Can, MenuNamePermission, RolePermission, useRoles } from './index';

// The helpers read the session store through its hook; rendered on the server, a zustand store shows its
// initial state, so the hook reads this plain session instead.
type Session = { role: string; userInfo: { permissions: string[] } | null; serverMenu: MenuRoute[] };
const session: Session = { role: '', userInfo: null, serverMenu: [] };
vi.mock('../../services/session', () => ({ useSession: (select: (s: Session) => unknown) => select(session) }));

const render = (node: ReactNode) => renderToStaticMarkup(<div>{node}</div>);
const signedIn = (role: string, permissions: string[]) => Object.assign(session, { role, userInfo: { permissions } });

describe('permission helpers', () => {
  beforeEach(() => Object.assign(session, { role: '', userInfo: null, serverMenu: [] }));

  it('<Can> shows its children only for a granted permission', () => {
    signedIn('user', ['system:user:list', 'system:user:create']);
    expect(render(<Can permission="system:user:create">new</Can>)).toBe('<div>new</div>');
    expect(render(<Can permission="system:user:delete">delete</Can>)).toBe('<div></div>');
    // a permission is a whole string, not a prefix
    expect(render(<Can permission="system:user">x</Can>)).toBe('<div></div>');
  });

  it("<Can> shows everything to a holder of '*:*:*', nothing before user info is loaded", () => {
    expect(render(<Can permission="system:user:create">new</Can>)).toBe('<div></div>');
    signedIn('admin', ['*:*:*']);
    expect(render(<Can permission="system:tenant:delete">delete</Can>)).toBe('<div>delete</div>');
  });

  it('<RolePermission> follows the role', () => {
    signedIn('user', []);
    expect(render(<RolePermission roles={['admin']}>a</RolePermission>)).toBe('<div></div>');
    expect(render(<RolePermission roles={['admin', 'user']}>a</RolePermission>)).toBe('<div>a</div>');
  });

  it('useRoles refuses a list that is not an array', () => {
    const Probe = () => (useRoles('admin' as unknown as string[]) ? 'yes' : 'no');
    expect(() => render(<Probe />)).toThrow(/need roles/);
  });

  it('<MenuNamePermission> needs its id in the server menu, at any depth', () => {
    Object.assign(session, {
      serverMenu: [
        {
          name: 'system',
          path: '/system',
          meta: { locale: 'x' },
          children: [{ name: 'systemUser', path: '/system/user', meta: { locale: 'y' } }],
        },
      ],
    });
    expect(render(<MenuNamePermission id="systemUser">u</MenuNamePermission>)).toBe('<div>u</div>');
    expect(render(<MenuNamePermission id="systemRole">r</MenuNamePermission>)).toBe('<div></div>');
  });
});
