import { EventEmitter } from 'node:events';

/** Why sessions ended; stored in `sessions.end_reason`. */
export type SessionEndReason =
  | 'logout'
  | 'forced'
  | 'password'
  | 'user_disabled'
  | 'tenant_disabled'
  | 'role_changed'
  | 'switched'
  | 'removed';

export type SessionEndedEvent = { sessionIds: number[]; accountRef: number; reason: SessionEndReason };

/** Everything the app announces in-process. Listeners must not throw. */
export type AppEventMap = {
  'session.ended': [SessionEndedEvent];
};

export type AppEvents = EventEmitter<AppEventMap>;

export function createAppEvents(): AppEvents {
  const events = new EventEmitter<AppEventMap>();
  // the broker, caches and tests may all listen; more than 10 is not a leak here
  events.setMaxListeners(100);
  return events;
}
