import { Readable } from 'node:stream';
import {
  type CreateUserInput,
  conflictReasons,
  createUserSchema,
  errorMessage,
  type FieldError,
  fieldMessage,
  type ImportResult,
  userEntity,
} from '@atrium/contracts';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Ctx } from '../../../crud/context';
import { exportColumns } from '../../../crud/entity';
import { type Bilingual, type ExcelColumn, headerOf } from '../../../crud/excel';
import { depts } from '../../../db/schema';
import { AppError, issueMessage } from '../../../errors';
import type { UserRecord } from './user.repository';
import { userService } from './user.service';
import { honestWorkbook } from './zip-guard';

/** The user sheet: what export writes and import reads (by header, in either language), so an export is its own template. */
export const userColumns = exportColumns(userEntity.fields ?? []) as unknown as ExcelColumn<UserRecord>[];

export const MAX_ROWS = 5000;
/** An import stops with what it has done after this long (the rest of the sheet is reported as not read). */
export const IMPORT_TIME_MS = 60_000;

const cellText = (value: ExcelJS.CellValue): string | undefined => {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'object' && 'richText' in value)
    return (
      value.richText
        .map((r) => r.text)
        .join('')
        .trim() || undefined
    );
  if (typeof value === 'object' && 'text' in value) return String(value.text).trim() || undefined;
  if (typeof value === 'object' && 'result' in value) return value.result === undefined ? undefined : String(value.result).trim();
  if (value instanceof Date) return value.toISOString();
  return String(value).trim() || undefined;
};

const fileError = (rule: string, message: string, params?: Record<string, string | number>) =>
  new AppError('validation', { fields: [{ field: 'file', rule, message, ...(params ? { params } : {}) }] });

/** A word of either language ('停用', 'Disabled') or the code itself back to the code. */
function codeOf(labels: Record<string, Bilingual> | undefined, text: string | undefined): string | undefined {
  if (!labels || text === undefined) return text;
  const lowered = text.toLowerCase();
  for (const [code, label] of Object.entries(labels)) {
    if (code === text || label.en.toLowerCase() === lowered || label.zh === text) return code;
  }
  return text;
}

/** The workbook in pieces, letting other requests run between them (the reader parses each piece at once). */
async function* pieces(file: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < file.length; at += PIECE_BYTES) {
    yield file.subarray(at, at + PIECE_BYTES);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
const PIECE_BYTES = 64 * 1024;

/** Every row of the first sheet, streamed. */
async function* sheetRows(file: Buffer): AsyncGenerator<{ number: number; values: ExcelJS.CellValue[] }> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(pieces(file)), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  for await (const sheet of reader) {
    for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
      yield { number: row.number, values: row.values as ExcelJS.CellValue[] };
    }
    return;
  }
}

/**
 * Creates a user per sheet row. Each row is validated with the same contract as the form and written
 * in its own savepoint, so a bad row is reported (row, field by its header, rule, message — every
 * problem of the row) and the good ones stay. The zip is inflated within limits on the bytes it really
 * produces (`honestWorkbook`); rows are streamed and counted; a database failure is logged, never shown.
 */
export async function importUsers(ctx: Ctx, upload: Buffer, now: () => number = Date.now): Promise<ImportResult> {
  // the reader gets the parts as they really inflate, within the limits: never the upload itself
  const file = await honestWorkbook(upload);
  const lang = ctx.request.lang;
  const deadline = now() + IMPORT_TIME_MS;
  const label = (key: string) => {
    const column = userColumns.find((c) => c.key === key);
    return column ? headerOf(column, lang) : key;
  };
  const deptIds = new Map(
    (
      await ctx.tx
        .select({ id: depts.id, name: depts.name })
        .from(depts)
        .where(and(eq(depts.tenantId, ctx.caller.tenantId)))
    ).map((d) => [d.name, d.id]),
  );
  const result: ImportResult = { created: 0, failed: 0, errors: [] };
  const headers = new Map<number, string>();
  let seen = 0;
  const rows = sheetRows(file);
  try {
    for await (const row of rows) {
      if (row.number === 1) {
        row.values.forEach((value, col) => {
          const text = cellText(value)?.toLowerCase();
          const column = userColumns.find(
            (c) => c.header.toLowerCase() === text || c.zh === cellText(value) || c.key.toLowerCase() === text,
          );
          if (column) headers.set(col, column.key);
        });
        if (![...headers.values()].includes('accountId')) {
          throw fileError('header', 'import.header');
        }
        continue;
      }
      if (!headers.size) throw fileError('header', 'import.header');
      if (++seen > MAX_ROWS) throw fileError('max', 'import.maxRows', { max: MAX_ROWS });
      if (now() > deadline) throw fileError('timeout', 'import.timeout', { created: result.created });
      await importRow(ctx, row, headers, deptIds, label, result);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    ctx.request.log.warn({ err: error }, 'unreadable import workbook');
    throw fileError('format', 'import.notXlsx');
  }
  if (!headers.size) throw fileError('format', 'import.noHeader');
  return result;
}

async function importRow(
  ctx: Ctx,
  row: { number: number; values: ExcelJS.CellValue[] },
  headers: Map<number, string>,
  deptIds: Map<string, number>,
  label: (key: string) => string,
  result: ImportResult,
) {
  const raw: Record<string, string | undefined> = {};
  for (const [col, key] of headers) {
    const column = userColumns.find((c) => c.key === key);
    raw[key] = codeOf(column?.labels, cellText(row.values[col]));
  }
  if (Object.values(raw).every((v) => v === undefined)) return;
  const errors: ImportResult['errors'] = [];
  const lang = ctx.request.lang;
  const say = (message: string, params?: Record<string, string | number>) => fieldMessage(message, lang, params);
  const fail = (key: string, rule: string, message: string) => errors.push({ row: row.number, field: label(key), rule, message });
  const deptId = raw.deptName ? deptIds.get(raw.deptName) : undefined;
  if (raw.deptName && deptId === undefined) fail('deptName', 'exists', say('ref.missing'));
  const parsed = createUserSchema.safeParse({ ...raw, deptName: undefined, createTime: undefined, deptId });
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'row');
      const { message, params } = issueMessage(issue, raw[field]);
      fail(field, issue.code, say(message, params));
    }
  if (errors.length || !parsed.success) {
    result.failed++;
    result.errors.push(...errors);
    return;
  }
  try {
    await ctx.tx.transaction((savepoint) => userService.create({ ...ctx, tx: savepoint }, parsed.data as CreateUserInput));
    result.created++;
  } catch (error) {
    result.failed++;
    const fields = error instanceof AppError ? (error.data?.fields as FieldError[] | undefined) : undefined;
    if (fields?.length) {
      for (const f of fields)
        result.errors.push({ row: row.number, field: label(f.field), rule: f.rule ?? 'invalid', message: say(f.message, f.params) });
    } else if (error instanceof AppError) {
      result.errors.push({
        row: row.number,
        field: label('row'),
        rule: 'refused',
        message: errorMessage(
          error.reason ? { ...error.entry, ...(conflictReasons[error.reason] ?? {}) } : error.entry,
          lang,
          error.params,
        ),
      });
    } else {
      // the statement and its parameters stay in the server log
      ctx.request.log.error({ err: error, row: row.number }, 'import row not saved');
      result.errors.push({ row: row.number, field: label('row'), rule: 'saveFailed', message: say('import.saveFailed') });
    }
  }
}
