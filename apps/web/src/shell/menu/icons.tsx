import { IconMenu } from '@arco-design/web-react/icon';
import type { ComponentType } from 'react';
import * as named from './icon-set';

// the icons route metadata may name; an unknown name falls back to a neutral one
const icons: Record<string, ComponentType> = named;

export function MenuIcon({ name }: { name?: string }) {
  if (!name) return null;
  const Icon = icons[name] ?? IconMenu;
  return <Icon />;
}
