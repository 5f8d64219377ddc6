import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** The page settings of spec section 9, persisted per browser. */
export type AppSettings = {
  theme: 'light' | 'dark';
  colorWeak: boolean;
  navbar: boolean;
  menu: boolean;
  topMenu: boolean;
  hideMenu: boolean;
  menuCollapse: boolean;
  footer: boolean;
  themeColor: string;
  menuWidth: number;
  globalSettings: boolean;
  device: 'desktop' | 'mobile';
  tabBar: boolean;
  menuFromServer: boolean;
};

export const defaultSettings: AppSettings = {
  theme: 'light',
  colorWeak: false,
  navbar: true,
  menu: true,
  topMenu: false,
  hideMenu: false,
  menuCollapse: false,
  footer: false,
  themeColor: '#165DFF',
  menuWidth: 170,
  globalSettings: false,
  device: 'desktop',
  tabBar: false,
  menuFromServer: true,
};

/** Under this width the app is on a phone or a narrow tablet: `device` is `mobile` and the side menu a drawer. */
export const MOBILE_QUERY = '(max-width: 991px)';

/**
 * What the screen says, not a choice: `device` follows the window's width and `hideMenu` follows
 * `device` (the side menu gives way to a drawer on a phone). Neither is stored.
 */
export function screenState(): Pick<AppSettings, 'device' | 'hideMenu'> {
  const mobile = typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(MOBILE_QUERY).matches;
  return { device: mobile ? 'mobile' : 'desktop', hideMenu: mobile };
}

const followsScreen = new Set<keyof AppSettings>(['device', 'hideMenu']);

type SettingsState = AppSettings & {
  update: (patch: Partial<AppSettings>) => void;
  reset: () => void;
};

export const SETTINGS_STORAGE_KEY = 'atrium-settings';

export const useSettings = create<SettingsState>()(
  persist(
    (set) => ({
      ...defaultSettings,
      ...screenState(),
      update: (patch) => set(patch),
      reset: () => set({ ...defaultSettings, ...screenState() }),
    }),
    {
      name: SETTINGS_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => storedSettings(state),
      // a stored value from an older version keeps only the keys it shares with today's settings; the
      // screen's own state comes from the screen
      merge: (persisted, current) => ({
        ...current,
        ...storedSettings({ ...defaultSettings, ...(persisted as Partial<AppSettings>) }),
      }),
    },
  ),
);

// the window crosses the breakpoint (a phone turns, a window is resized): the layout follows
if (typeof window !== 'undefined' && typeof window.matchMedia === 'function') {
  window.matchMedia(MOBILE_QUERY).addEventListener('change', () => useSettings.setState(screenState()));
}

/** The settings kept in the browser: all but those that follow the screen. */
function storedSettings(state: AppSettings): Partial<AppSettings> {
  const all = pickSettings(state);
  for (const key of followsScreen) delete all[key];
  return all;
}

export function pickSettings(state: AppSettings): AppSettings {
  const out = {} as Record<keyof AppSettings, unknown>;
  for (const key of Object.keys(defaultSettings) as (keyof AppSettings)[]) out[key] = state[key];
  return out as AppSettings;
}

/** Applies theme and colour-weak mode to the document; runs on every screen, signed in or not. */
export function applySettingsToDocument(settings: Pick<AppSettings, 'theme' | 'colorWeak'>): void {
  if (settings.theme === 'dark') document.body.setAttribute('arco-theme', 'dark');
  else document.body.removeAttribute('arco-theme');
  document.body.style.filter = settings.colorWeak ? 'invert(80%)' : '';
}
