import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteHandle } from '../../app/routes';
import { clearLocalSession } from '../../app/session';
import { stagingTab, useTabs } from '../tab-bar/tabs-store';
import { isCacheable, paneKey, stalePaths } from './keys';

const route = (name: string, ignoreCache = false): RouteHandle => ({ name, meta: { locale: name, ignoreCache } });
const change = (pathname: string, search = '', ignoreCache = false) => ({ name: pathname, pathname, search, locale: 'x', ignoreCache });

describe('which pages stay mounted', () => {
  it('only with the tab bar on, and never an ignoreCache page or the redirect page', () => {
    expect(isCacheable(true, route('systemUser'))).toBe(true);
    expect(isCacheable(false, route('systemUser'))).toBe(false);
    expect(isCacheable(true, route('systemUser', true))).toBe(false);
    expect(isCacheable(true, route('Redirect'))).toBe(false);
    expect(isCacheable(true, undefined)).toBe(false);
  });

  it('drops the pages whose tab closed, keeps the shown one, and drops all with the tab bar off', () => {
    const cached = ['/staging', '/system/user', '/system/role'];
    expect(stalePaths(cached, ['/staging', '/system/user'], '/system/user', true)).toEqual(['/system/role']);
    // the page on screen stays even before its tab exists
    expect(stalePaths(cached, ['/staging'], '/system/role', true)).toEqual(['/system/user']);
    expect(stalePaths(cached, cached, '/staging', false)).toEqual(cached);
  });
});

describe("a pane's key", () => {
  it('is the same across renders while nothing about the page changed', () => {
    expect(paneKey(1, '/system/user', {})).toBe(paneKey(1, '/system/user', { '/system/role': 3 }));
  });

  it('changes with the tenant, so a tenant switch mounts every page afresh', () => {
    expect(paneKey(1, '/system/user', {})).not.toBe(paneKey(2, '/system/user', {}));
  });

  it('changes when the tab is reloaded, and only for that tab', () => {
    const before = { ...useTabs.getState().versions };
    useTabs.getState().reload('/system/user');
    const after = useTabs.getState().versions;
    expect(paneKey(1, '/system/user', after)).not.toBe(paneKey(1, '/system/user', before));
    expect(paneKey(1, '/system/role', after)).toBe(paneKey(1, '/system/role', before));
  });

  it('of a page that is not kept never equals a kept one, so switching the cache off remounts it', () => {
    expect(paneKey(1, '/system/user', {}, true)).not.toBe(paneKey(1, '/system/user', {}));
    // paths cannot make two different pages collide
    expect(paneKey(1, '/a#1', {})).not.toBe(paneKey(1, '/a', { '/a': 1 }));
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
      useTabs.getState().reload('/system/user');
      clearLocalSession();
      expect(useTabs.getState()).toMatchObject({ tabs: [stagingTab], versions: {} });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
