import { forgetVisits, rememberVisit } from './recent-pages';

/** Route-change listeners (the tab bar listens); logout removes them all. */
/** `key` is what the page is kept under while its tab is open (`shell/keep-alive/keys.ts`). */
export type RouteChange = { name: string; key: string; pathname: string; search: string; locale: string; ignoreCache: boolean };
type Listener = (change: RouteChange) => void;

const listeners = new Set<Listener>();
let latest: RouteChange | undefined;

export function emitRouteChange(change: RouteChange): void {
  latest = change;
  rememberVisit(change.name);
  for (const listener of listeners) listener(change);
}

/** Calls the listener now with the latest route (if any) and on every later change. */
export function listenRouteChange(listener: Listener, immediate = true): () => void {
  listeners.add(listener);
  if (immediate && latest) listener(latest);
  return () => listeners.delete(listener);
}

export function removeRouteListener(): void {
  listeners.clear();
  latest = undefined;
  forgetVisits();
}
