import { type CreateUserInput, createUserSchema, type ImportResult } from '@atrium/contracts';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Ctx } from '../../../crud/context';
import type { ExcelColumn } from '../../../crud/excel';
import { depts } from '../../../db/schema';
import { AppError } from '../../../errors';
import type { UserRecord } from './user.repository';
import { userService } from './user.service';

/** The user sheet: what export writes and import reads (by header), so an export is its own template. */
export const userColumns: ExcelColumn<UserRecord>[] = [
  { header: 'User number', key: 'accountId' },
  { header: 'Name', key: 'name' },
  { header: 'Nickname', key: 'nickname' },
  { header: 'Phone', key: 'phone' },
  { header: 'Email', key: 'email', width: 28 },
  { header: 'Sex', key: 'sex', width: 8 },
  { header: 'Department', key: 'deptName', width: 20 },
  { header: 'Status', key: 'status', width: 8 },
  { header: 'ID number', key: 'idNumber', width: 20 },
  { header: 'Address', key: 'address', width: 30 },
  { header: 'Remark', key: 'remark', width: 30 },
  { header: 'Created', key: 'createTime', width: 24 },
];

const MAX_ROWS = 5000;

const cellText = (value: ExcelJS.CellValue): string | undefined => {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'object' && 'text' in value) return String(value.text).trim() || undefined;
  if (typeof value === 'object' && 'result' in value) return value.result === undefined ? undefined : String(value.result).trim();
  if (value instanceof Date) return value.toISOString();
  return String(value).trim() || undefined;
};

/**
 * Creates a user per sheet row. Each row is validated with the same contract as the form and written
 * in its own savepoint, so a bad row is reported (row number, field, message) and the good ones stay.
 */
export async function importUsers(ctx: Ctx, file: Buffer): Promise<ImportResult> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    throw new AppError('validation', { fields: [{ field: 'file', rule: 'format', message: 'not an .xlsx workbook' }] });
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new AppError('validation', { fields: [{ field: 'file', rule: 'format', message: 'the workbook has no sheet' }] });
  const headers = new Map<number, string>();
  sheet.getRow(1).eachCell((cell, col) => {
    const text = cellText(cell.value);
    const column = userColumns.find((c) => c.header.toLowerCase() === text?.toLowerCase() || c.key === text);
    if (column) headers.set(col, column.key);
  });
  if (![...headers.values()].includes('accountId')) {
    throw new AppError('validation', {
      fields: [{ field: 'file', rule: 'header', message: 'the first row must hold the column headers (User number, Name…)' }],
    });
  }
  if (sheet.rowCount - 1 > MAX_ROWS)
    throw new AppError('validation', { fields: [{ field: 'file', rule: 'max', message: `at most ${MAX_ROWS} rows` }] });

  const deptIds = new Map(
    (
      await ctx.tx
        .select({ id: depts.id, name: depts.name })
        .from(depts)
        .where(and(eq(depts.tenantId, ctx.caller.tenantId)))
    ).map((d) => [d.name, d.id]),
  );
  const result: ImportResult = { created: 0, failed: 0, errors: [] };
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const raw: Record<string, string | undefined> = {};
    for (const [col, key] of headers) raw[key] = cellText(row.getCell(col).value);
    if (Object.values(raw).every((v) => v === undefined)) continue;
    const fail = (field: string, message: string) => {
      result.failed++;
      result.errors.push({ row: r, field, message });
    };
    const deptId = raw.deptName ? deptIds.get(raw.deptName) : undefined;
    if (raw.deptName && deptId === undefined) {
      fail('deptName', 'no such department');
      continue;
    }
    const parsed = createUserSchema.safeParse({ ...raw, deptName: undefined, createTime: undefined, deptId });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      fail(String(issue.path[0] ?? 'row'), issue.message);
      continue;
    }
    try {
      await ctx.tx.transaction((savepoint) => userService.create({ ...ctx, tx: savepoint }, parsed.data as CreateUserInput));
      result.created++;
    } catch (error) {
      const fields = error instanceof AppError ? (error.data?.fields as { field: string; message: string }[] | undefined) : undefined;
      fail(fields?.[0]?.field ?? 'row', fields?.[0]?.message ?? (error as Error).message);
    }
  }
  return result;
}
