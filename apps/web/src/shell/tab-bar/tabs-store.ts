import { create } from 'zustand';
import type { RouteChange } from '../../services/route-listener';
import { REDIRECT_NAME, STAGING_NAME, STAGING_PATH } from '../../services/routes';
import { onSessionReset } from '../../services/session';

/** A tab per path; `key` is what its page is kept under (the route name; with the path when it has parameters). */
export type Tab = { name: string; key: string; path: string; search: string; locale: string; ignoreCache: boolean };

export const stagingTab: Tab = {
  name: STAGING_NAME,
  key: STAGING_NAME,
  path: STAGING_PATH,
  search: '',
  locale: 'menu.staging',
  ignoreCache: false,
};

type TabsState = {
  tabs: Tab[];
  /** Bumped by "reload" so the kept-alive page mounts afresh; by page key. */
  versions: Record<string, number>;
  open: (change: RouteChange) => void;
  /** Each close returns the tabs left; the caller moves away if the current one went. */
  close: (path: string) => Tab[];
  closeLeft: (path: string) => Tab[];
  closeRight: (path: string) => Tab[];
  closeOthers: (path: string) => Tab[];
  closeAll: () => Tab[];
  reload: (key: string) => void;
};

const keepStaging = (tabs: Tab[]) => (tabs[0]?.path === STAGING_PATH ? tabs : [stagingTab, ...tabs.filter((t) => t.path !== STAGING_PATH)]);

export const useTabs = create<TabsState>()((set, get) => {
  const update = (next: Tab[]) => {
    const tabs = keepStaging(next);
    set({ tabs });
    return tabs;
  };
  return {
    tabs: [stagingTab],
    versions: {},
    open: (change) => {
      if (change.name === REDIRECT_NAME) return;
      const { tabs } = get();
      const existing = tabs.findIndex((tab) => tab.path === change.pathname);
      const tab: Tab = {
        name: change.name,
        key: change.key,
        path: change.pathname,
        search: change.search,
        locale: change.locale,
        ignoreCache: change.ignoreCache,
      };
      if (existing >= 0) {
        if (tabs[existing]?.search !== change.search) update(tabs.map((t, i) => (i === existing ? tab : t)));
        return;
      }
      update([...tabs, tab]);
    },
    close: (path) => (path === STAGING_PATH ? get().tabs : update(get().tabs.filter((tab) => tab.path !== path))),
    closeLeft: (path) => {
      const { tabs } = get();
      const index = tabs.findIndex((tab) => tab.path === path);
      return update(tabs.filter((tab, i) => i >= index || tab.path === STAGING_PATH));
    },
    closeRight: (path) => {
      const { tabs } = get();
      const index = tabs.findIndex((tab) => tab.path === path);
      return update(tabs.filter((_, i) => i <= index));
    },
    closeOthers: (path) => update(get().tabs.filter((tab) => tab.path === path || tab.path === STAGING_PATH)),
    closeAll: () => update([stagingTab]),
    reload: (key) => set(({ versions }) => ({ versions: { ...versions, [key]: (versions[key] ?? 0) + 1 } })),
  };
});

onSessionReset(() => useTabs.setState({ tabs: [stagingTab], versions: {} }));
