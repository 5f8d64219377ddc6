/** A name no other test run uses: the prefix, the time in base 36 and a counter. */
let seq = 0;
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${seq++}`;

/**
 * Polls until `check` answers something truthy; fails (never hangs) after `ms`, a bound that only a
 * state that never comes reaches (it returns as soon as the state is there).
 */
export async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`still waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
