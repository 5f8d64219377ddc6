import { z } from 'zod';

/** The years a stored date may have: earlier or later ones are typing mistakes or probes (year 0000 is not even PostgreSQL's). */
export const YEARS = { min: 1900, max: 9999 } as const;

/** Whether an ISO date or date-time falls in YEARS (counted in UTC, as it is stored). */
export function inYears(value: string): boolean {
  const d = new Date(value);
  const year = d.getUTCFullYear();
  return !Number.isNaN(d.getTime()) && year >= YEARS.min && year <= YEARS.max;
}

const rangeMessage = `years ${YEARS.min} to ${YEARS.max}`;

/** An instant with its offset (`2026-11-23T10:00:00+08:00`), in YEARS: the building block for every stored date-time. */
export const isoDateTime = () => z.iso.datetime({ offset: true }).refine(inYears, { message: rangeMessage });

/** An IANA time zone name (`Asia/Shanghai`) the runtime knows. */
export const ianaTimeZone = () =>
  z
    .string()
    .max(64)
    .refine(
      (name) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: name });
          return true;
        } catch {
          return false;
        }
      },
      { message: 'timeZone.unknown' },
    );

/** A day (`yyyy-mm-dd`) in YEARS: the building block for every stored date. */
export const isoDay = () => z.iso.date().refine(inYears, { message: rangeMessage });
