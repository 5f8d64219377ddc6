// One way to show money in the whole app: the API carries integer fen; a person reads yuan with the
// currency sign, thousands grouped and two decimals (`¥1,054.00`), the same digits in both languages.
const EMPTY = '—';
const grouping = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `¥1,054.00` of 105400 fen (`-¥3.50` of -350); a dash for no amount. Exact: no float of yuan is rounded. */
export function formatMoney(fen: number | null | undefined): string {
  if (fen === null || fen === undefined || !Number.isFinite(fen)) return EMPTY;
  const whole = Math.round(Math.abs(fen));
  const cents = String(whole % 100).padStart(2, '0');
  return `${fen < 0 && whole > 0 ? '-' : ''}¥${grouping.format(Math.floor(whole / 100))}.${cents}`;
}

/** The same for an amount a chart holds in yuan (its axis and tooltip labels). */
export const formatYuan = (yuan: number): string => formatMoney(Math.round(yuan * 100));

/** Fen as the number of yuan a chart plots. */
export const yuanOf = (fen: number): number => fen / 100;
