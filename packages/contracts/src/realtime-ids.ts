/**
 * A browser's MQTT client id is its account's client key, a dash and characters of its own (one id per
 * tab): the broker refuses any other, so an account never takes over another account's connection by
 * reusing its id.
 */
export function realtimeClientId(clientKey: string, tab: string): string {
  return `${clientKey}-${tab}`;
}

/** Whether `clientId` is one the account with `clientKey` may connect with. */
export function ownsClientId(clientKey: string, clientId: string): boolean {
  return clientKey.length > 0 && clientId.length > clientKey.length + 1 && clientId.startsWith(`${clientKey}-`);
}
