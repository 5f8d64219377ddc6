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

type SettingsState = AppSettings & {
  update: (patch: Partial<AppSettings>) => void;
  reset: () => void;
};

export const SETTINGS_STORAGE_KEY = 'atrium-settings';

export const useSettings = create<SettingsState>()(
  persist(
    (set) => ({
      ...defaultSettings,
      update: (patch) => set(patch),
      reset: () => set(defaultSettings),
    }),
    {
      name: SETTINGS_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => pickSettings(state),
      // a stored value from an older version keeps only the keys it shares with today's settings
      merge: (persisted, current) => ({ ...current, ...pickSettings({ ...defaultSettings, ...(persisted as Partial<AppSettings>) }) }),
    },
  ),
);

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
