import type { RealtimeKind } from '@atrium/contracts/realtime';

/**
 * Live events reach pages as a window event, so a page (task progress, printer status) listens
 * without a broker client of its own and without pulling the MQTT library into its chunk.
 */
export const REALTIME_EVENT = 'atrium:realtime';

export type RealtimeMessage = { kind: RealtimeKind; [key: string]: unknown };

export function emitRealtime(message: RealtimeMessage): void {
  window.dispatchEvent(new CustomEvent<RealtimeMessage>(REALTIME_EVENT, { detail: message }));
}

/** Calls `handler` for every live message of `kind`; answers the function that stops listening. */
export function onRealtime(kind: RealtimeKind, handler: (message: RealtimeMessage) => void): () => void {
  const listener = (event: Event) => {
    const message = (event as CustomEvent<RealtimeMessage>).detail;
    if (message?.kind === kind) handler(message);
  };
  window.addEventListener(REALTIME_EVENT, listener);
  return () => window.removeEventListener(REALTIME_EVENT, listener);
}
