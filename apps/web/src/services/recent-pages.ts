/**
 * The pages this person opened lately in this browser (route names, newest first), for the workplace
 * and the staging workbench. Cleared on logout, so the next person on the same browser starts afresh.
 */
const KEY = 'atrium-recent';
const KEEP = 8;
const SKIP = new Set(['Redirect', 'Staging', 'Workplace', 'notFound']);

export function recentPages(): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberVisit(name: string): void {
  if (!name || SKIP.has(name)) return;
  localStorage.setItem(KEY, JSON.stringify([name, ...recentPages().filter((n) => n !== name)].slice(0, KEEP)));
}

export function forgetVisits(): void {
  localStorage.removeItem(KEY);
}
