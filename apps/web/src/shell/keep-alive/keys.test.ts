import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteHandle } from '../../services/routes';
import { clearLocalSession } from '../../services/session';
import { stagingTab, useTabs } from '../tab-bar/tabs-store';
import { isCacheable, pageKey, paneKey, staleKeys } from './keys';

const route = (name: string, ignoreCache = false): RouteHandle => ({ name, meta: { locale: name, ignoreCache } });
const change = (pathname: string, search = '', ignoreCache = false) => ({
  name: pathname,
  key: pathname,
  pathname,
  search,
  locale: 'x',
  ignoreCache,
});

describe('which pages stay mounted', () => {
  it('only with the tab bar on, and never an ignoreCache page or the redirect page', () => {
    expect(isCacheable(true, route('systemUser'))).toBe(true);
    expect(isCacheable(false, route('systemUser'))).toBe(false);
    expect(isCacheable(true, route('systemUser', true))).toBe(false);
    expect(isCacheable(true, route('Redirect'))).toBe(false);
    expect(isCacheable(true, undefined)).toBe(false);
  });

  it('drops the pages whose tab closed, keeps the shown one, and drops all with the tab bar off', () => {
    const cached = ['Staging', 'systemUser', 'systemRole'];
    expect(staleKeys(cached, ['Staging', 'systemUser'], 'systemUser', true)).toEqual(['systemRole']);
    // the page on screen stays even before its tab exists
    expect(staleKeys(cached, ['Staging'], 'systemRole', true)).toEqual(['systemUser']);
    expect(staleKeys(cached, cached, 'Staging', false)).toEqual(cached);
  });
});

describe("a page's key", () => {
  it('is its route name, whatever the path or query it was opened at', () => {
    expect(pageKey('systemUser', '/system/user')).toBe('systemUser');
    expect(pageKey('systemUser', '/system/user/', {})).toBe('systemUser');
  });

  it('of a route with parameters is one per parameter set: two open records are two pages', () => {
    const one = pageKey('systemUserDetail', '/system/user/detail/1', { id: '1' });
    const two = pageKey('systemUserDetail', '/system/user/detail/2', { id: '2' });
    expect(one).not.toBe(two);
    expect(one).toBe(pageKey('systemUserDetail', '/system/user/detail/1', { id: '1' }));
    expect(one).not.toBe(pageKey('mallGoodsUpdate', '/system/user/detail/1', { id: '1' }));
  });
});

describe("a pane's key", () => {
  it('is the same across renders while nothing about the page changed', () => {
    expect(paneKey(1, 'systemUser', {})).toBe(paneKey(1, 'systemUser', { systemRole: 3 }));
  });

  it('changes with the tenant, so a tenant switch mounts every page afresh', () => {
    expect(paneKey(1, 'systemUser', {})).not.toBe(paneKey(2, 'systemUser', {}));
  });

  it('changes when the tab is reloaded, and only for that tab', () => {
    const before = { ...useTabs.getState().versions };
    useTabs.getState().reload('systemUser');
    const after = useTabs.getState().versions;
    expect(paneKey(1, 'systemUser', after)).not.toBe(paneKey(1, 'systemUser', before));
    expect(paneKey(1, 'systemRole', after)).toBe(paneKey(1, 'systemRole', before));
  });

  it('of a page that is not kept never equals a kept one, so switching the cache off remounts it', () => {
    expect(paneKey(1, 'systemUser', {}, true)).not.toBe(paneKey(1, 'systemUser', {}));
    // keys cannot make two different pages collide
    expect(paneKey(1, 'a#1', {})).not.toBe(paneKey(1, 'a', { a: 1 }));
  });
});

describe('the tab bar', () => {
  beforeEach(() => useTabs.setState({ tabs: [stagingTab], versions: {} }));
  const paths = () => useTabs.getState().tabs.map((tab) => tab.path);

  it('opens a tab per path, once, keeping the latest query; never one for the redirect page', () => {
    const { open } = useTabs.getState();
    open(change('/system/user'));
    open(change('/system/role'));
    open(change('/system/user', '?pageNum=2'));
    open({ ...change('/redirect/system/user'), name: 'Redirect' });
    expect(paths()).toEqual(['/staging', '/system/user', '/system/role']);
    expect(useTabs.getState().tabs[1]?.search).toBe('?pageNum=2');
  });

  it('always keeps the staging tab first', () => {
    const { open, close, closeLeft, closeRight, closeOthers, closeAll } = useTabs.getState();
    for (const path of ['/a', '/b', '/c', '/d']) open(change(path));
    expect(close('/staging').map((t) => t.path)).toEqual(['/staging', '/a', '/b', '/c', '/d']);
    expect(closeLeft('/b').map((t) => t.path)).toEqual(['/staging', '/b', '/c', '/d']);
    expect(closeRight('/c').map((t) => t.path)).toEqual(['/staging', '/b', '/c']);
    expect(closeOthers('/c').map((t) => t.path)).toEqual(['/staging', '/c']);
    expect(close('/c').map((t) => t.path)).toEqual(['/staging']);
    open(change('/a'));
    expect(closeAll().map((t) => t.path)).toEqual(['/staging']);
  });

  it('is emptied when the session ends', () => {
    const storage = () => {
      const items = new Map<string, string>();
      return {
        getItem: (k: string) => items.get(k) ?? null,
        setItem: (k: string, v: string) => items.set(k, v),
        removeItem: (k: string) => items.delete(k),
      };
    };
    vi.stubGlobal('localStorage', storage());
    vi.stubGlobal('sessionStorage', storage());
    try {
      useTabs.getState().open(change('/system/user'));
      useTabs.getState().reload('systemUser');
      clearLocalSession();
      expect(useTabs.getState()).toMatchObject({ tabs: [stagingTab], versions: {} });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
