import dayjs from 'dayjs';
import i18next from 'i18next';

// One way to show time in the whole app: the same digits in both languages (2026-11-23 11:55), in the
// browser's time zone; words (relative times) follow the app's language, not the browser's.
const DATE = 'YYYY-MM-DD';
const DATE_TIME = 'YYYY-MM-DD HH:mm';
const DATE_TIME_SECONDS = 'YYYY-MM-DD HH:mm:ss';

type Value = string | number | Date | null | undefined;
const EMPTY = '—';

const parse = (value: Value) => {
  if (value === null || value === undefined || value === '') return null;
  const d = dayjs(value);
  return d.isValid() ? d : null;
};

/** `2026-11-23` */
export const formatDate = (value: Value): string => parse(value)?.format(DATE) ?? EMPTY;

/** `2026-11-23 11:55` — tables, lists, details */
export const formatDateTime = (value: Value): string => parse(value)?.format(DATE_TIME) ?? EMPTY;

/** `11:55` — a chart's axis over the last hour */
export const formatClock = (value: Value): string => parse(value)?.format('HH:mm') ?? EMPTY;

/** `11:55:59` — a chart's axis over the last minutes */
export const formatClockSeconds = (value: Value): string => parse(value)?.format('HH:mm:ss') ?? EMPTY;

/** `2026-11-23 11:55:59` — logs, where seconds matter */
export const formatDateTimeSeconds = (value: Value): string => parse(value)?.format(DATE_TIME_SECONDS) ?? EMPTY;

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/** `3 分钟前` / `3 minutes ago`, in the app's language */
export function formatRelative(value: Value, now: number = Date.now()): string {
  const d = parse(value);
  if (!d) return EMPTY;
  const seconds = Math.round((d.valueOf() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(i18next.language || 'zh-CN', { numeric: 'auto' });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size || unit === 'second') return format.format(Math.trunc(seconds / size), unit);
  }
  return EMPTY;
}
