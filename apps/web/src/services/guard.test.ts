import { beforeEach, describe, expect, it } from 'vitest';
import { afterLoginPath, loginRedirect } from './guard';
import { useSession } from './session';
import { useSettings } from './settings';

describe('loginRedirect', () => {
  it('sends the path to sign-in and keeps the original query', () => {
    expect(loginRedirect(new URL('http://app.test/system/user?pageNum=2&name=Ann'))).toBe(
      '/login?redirect=%2Fsystem%2Fuser&pageNum=2&name=Ann',
    );
    expect(loginRedirect(new URL('http://app.test/system/user'))).toBe('/login?redirect=%2Fsystem%2Fuser');
  });

  it("replaces a redirect the URL already had: sign-in comes back to this page, not to the query's", () => {
    expect(loginRedirect(new URL('http://app.test/system/post?redirect=%2Fsystem%2Fuser&x=1'))).toBe(
      '/login?redirect=%2Fsystem%2Fpost&x=1',
    );
  });
});

describe('afterLoginPath', () => {
  beforeEach(() => {
    useSession.setState({ role: 'user', serverMenu: [] });
    useSettings.setState({ menuFromServer: false });
  });

  it('goes back to the page that asked for sign-in, with its query', () => {
    expect(afterLoginPath('?redirect=%2Fsystem%2Fuser&pageNum=2&name=Ann')).toBe('/system/user?pageNum=2&name=Ann');
    expect(afterLoginPath('?redirect=%2Fsystem%2Fuser')).toBe('/system/user');
    // a target with a query of its own gets the rest appended to it, not a second '?'
    expect(afterLoginPath('?redirect=%2Fsystem%2Fuser%3Ftab%3D1&x=2')).toBe('/system/user?tab=1&x=2');
    // a round trip through loginRedirect lands where it started
    const login = new URL(loginRedirect(new URL('http://app.test/system/user/detail/3?tab=roles')), 'http://app.test');
    expect(afterLoginPath(login.search)).toBe('/system/user/detail/3?tab=roles');
  });

  it('without a redirect, opens the first page the user may open', () => {
    expect(afterLoginPath('')).toBe('/staging');
    useSettings.setState({ menuFromServer: true });
    useSession.setState({ serverMenu: [{ name: 'systemPost', path: '/system/post', meta: { locale: 'x' } }] });
    expect(afterLoginPath('')).toBe('/system/post');
  });

  it('falls back to the staging page when the server menu grants nothing', () => {
    useSettings.setState({ menuFromServer: true });
    expect(afterLoginPath('')).toBe('/staging');
  });

  it('never leaves the site, however the redirect is written', () => {
    // a backslash, or a tab or newline the URL parser drops, turns '/x' into '//x': another host
    for (const target of [
      'https://evil.test/',
      '//evil.test/x',
      'javascript:alert(1)',
      'system/user',
      '/\\evil.test',
      '/\t/evil.test',
      '/\n/evil.test',
    ]) {
      expect(afterLoginPath(`?${new URLSearchParams({ redirect: target })}`)).toBe('/staging');
    }
  });
});
