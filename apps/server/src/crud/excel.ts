import type { Language, Resource } from '@atrium/contracts';
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import JSZip from 'jszip';
import type { z } from 'zod';
import { recordAudit } from './audit';
import type { Ctx } from './context';
import { totalsName } from './totals';
import { Download, downloadAnswer, typedRoute } from './typed-route';

/** A label in both languages. */
export type Bilingual = { en: string; zh: string };

export type ExcelColumn<Row> = {
  /** The English header; `zh` the Chinese one. Import accepts either. */
  header: string;
  zh?: string;
  key: string;
  width?: number;
  /** An ISO time: written in the requester's time zone as yyyy-mm-dd hh:mm:ss. */
  time?: boolean;
  /** Coded values ('0', '1'…) written as words in the requester's language. */
  labels?: Record<string, Bilingual>;
  value?: (row: Row) => string | number | null;
};

/** How an export reads: the requester's language and time zone. */
export type ExcelLocale = { lang: Language; timeZone: string };

/** The most rows one export writes; a bigger result should be narrowed with filters first. */
export const EXPORT_LIMIT = 20_000;
const PAGE = 500;
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const headerOf = (column: Pick<ExcelColumn<unknown>, 'header' | 'zh'>, lang: Language) =>
  lang === 'zh-CN' && column.zh ? column.zh : column.header;

/** A valid IANA time zone name, or null. */
export function validTimeZone(name: string | undefined | null): string | null {
  if (!name || name.length > 64) return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return name;
  } catch {
    return null;
  }
}

/** The export's locale: Accept-Language, and the `tz` query value or `X-Timezone` header (UTC when absent or unknown). */
export function excelLocale(request: FastifyRequest): ExcelLocale {
  const fromQuery = new URL(request.url, 'http://localhost').searchParams.get('tz');
  const header = request.headers['x-timezone'];
  return { lang: request.lang, timeZone: validTimeZone(fromQuery) ?? validTimeZone(typeof header === 'string' ? header : null) ?? 'UTC' };
}

/** yyyy-mm-dd hh:mm:ss of an ISO time in a time zone (the sv-SE format is exactly that). */
export function formatTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}

// text a spreadsheet would read as a formula after a CSV round trip (OWASP "CSV injection")
const formulaLike = (value: unknown) => typeof value === 'string' && /^[=+\-@\t\r]/.test(value);
// the marker style of such cells: "Text" (numFmt 49), rewritten below to also carry quotePrefix
const TEXT_FORMAT = '@';

/**
 * One sheet with a bold header row, from rows and column definitions, in the requester's language
 * and time zone. Formula-looking text is written as quote-prefixed text.
 */
export async function workbookOf<Row>(
  sheetName: string,
  columns: ExcelColumn<Row>[],
  rows: Row[],
  locale: ExcelLocale = { lang: 'en-US', timeZone: 'UTC' },
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c) => ({ header: headerOf(c, locale.lang), key: c.key, width: c.width ?? 18 }));
  sheet.getRow(1).font = { bold: true };
  let quoted = false;
  for (const row of rows) {
    const values = columns.map((c) => {
      const raw = c.value ? c.value(row) : ((row as Record<string, unknown>)[c.key] ?? null);
      if (raw === null || raw === undefined) return null;
      if (c.time && typeof raw === 'string') return formatTime(raw, locale.timeZone);
      const label = c.labels?.[String(raw)];
      if (label) return locale.lang === 'zh-CN' ? label.zh : label.en;
      return raw as string | number;
    });
    const added = sheet.addRow(values);
    values.forEach((v, i) => {
      if (!formulaLike(v)) return;
      added.getCell(i + 1).numFmt = TEXT_FORMAT;
      quoted = true;
    });
  }
  const file = Buffer.from(await workbook.xlsx.writeBuffer());
  return quoted ? withQuotePrefix(file) : file;
}

/** Adds quotePrefix="1" to the "Text" cell style (ExcelJS cannot write that attribute itself). */
async function withQuotePrefix(file: Buffer): Promise<Buffer> {
  const zip = await JSZip.loadAsync(file);
  const styles = await zip.file('xl/styles.xml')?.async('string');
  if (!styles) return file;
  zip.file('xl/styles.xml', styles.replace(/<xf numFmtId="49"(?![^>]*quotePrefix)/g, '<xf numFmtId="49" quotePrefix="1"'));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/**
 * GET `paths.export`: the list's filters and sort, every matching row (up to EXPORT_LIMIT) as .xlsx,
 * with the export permission and an operation-log entry. Headers, coded values and times follow the
 * requester (Accept-Language; `tz` or X-Timezone, UTC otherwise).
 */
export function registerExport<R extends Resource, Row>(
  app: FastifyInstance,
  resource: R,
  list: (ctx: Ctx, query: z.output<R['listQuery']>) => Promise<{ list: Row[]; total: number }>,
  columns: ExcelColumn<Row>[],
) {
  typedRoute(
    app,
    resource,
    {
      method: 'GET',
      url: resource.paths.export,
      action: 'export',
      write: true,
      query: resource.listQuery,
      produces: [XLSX_TYPE],
      response: downloadAnswer,
      // the list's kept total, as the list route keeps it: not counted again for each page read
      keptTotals: totalsName(resource),
      summary: `${resource.name}: export to Excel (headers in the Accept-Language, times in \`tz\`/X-Timezone or UTC)`,
    },
    async (ctx, { query }) => {
      const rows: Row[] = [];
      for (let pageNum = 1; rows.length < EXPORT_LIMIT; pageNum++) {
        const page = await list(ctx, { ...(query as object), pageNum, pageSize: PAGE } as z.output<R['listQuery']>);
        rows.push(...page.list);
        if (page.list.length < PAGE) break;
      }
      recordAudit(ctx.request, { target: `${rows.length} rows` });
      const file = await workbookOf(resource.name, columns, rows, excelLocale(ctx.request));
      return new Download(XLSX_TYPE, `${resource.name}-${new Date().toISOString().slice(0, 10)}.xlsx`, file);
    },
  );
}
