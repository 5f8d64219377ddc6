import {
  IconApps,
  IconCheckCircle,
  IconCloud,
  IconDashboard,
  IconExclamationCircle,
  IconFile,
  IconGift,
  IconHome,
  IconLink,
  IconList,
  IconMenu,
  IconQuestionCircle,
  IconSettings,
  IconStorage,
  IconUser,
  IconUserGroup,
} from '@arco-design/web-react/icon';
import type { ComponentType } from 'react';

// the icons route metadata may name; an unknown name falls back to a neutral one
const icons: Record<string, ComponentType> = {
  IconApps,
  IconCheckCircle,
  IconCloud,
  IconDashboard,
  IconExclamationCircle,
  IconFile,
  IconGift,
  IconHome,
  IconLink,
  IconList,
  IconQuestionCircle,
  IconSettings,
  IconStorage,
  IconUser,
  IconUserGroup,
};

export function MenuIcon({ name }: { name?: string }) {
  if (!name) return null;
  const Icon = icons[name] ?? IconMenu;
  return <Icon />;
}
