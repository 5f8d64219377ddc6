import type { Resource } from '@atrium/contracts';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { recordAudit } from './audit';
import { type Ctx, inTenant } from './context';
import { routeOptions } from './register-resource';

export type ExcelColumn<Row> = { header: string; key: string; width?: number; value?: (row: Row) => string | number | null };

/** The most rows one export writes; a bigger result should be narrowed with filters first. */
export const EXPORT_LIMIT = 20_000;
const PAGE = 500;
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** One sheet with a bold header row, from rows and column definitions. */
export async function workbookOf<Row>(sheetName: string, columns: ExcelColumn<Row>[], rows: Row[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 18 }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    sheet.addRow(
      Object.fromEntries(columns.map((c) => [c.key, c.value ? c.value(row) : ((row as Record<string, unknown>)[c.key] ?? null)])),
    );
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * GET `paths.export`: the list's filters and sort, every matching row (up to EXPORT_LIMIT) as .xlsx,
 * with the export permission and an operation-log entry.
 */
export function registerExport<R extends Resource, Row>(
  app: FastifyInstance,
  resource: R,
  list: (ctx: Ctx, query: z.output<R['listQuery']>) => Promise<{ list: Row[]; total: number }>,
  columns: ExcelColumn<Row>[],
) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      resource.paths.export,
      routeOptions(
        resource,
        'export',
        { querystring: resource.listQuery, produces: [XLSX_TYPE] },
        { write: true, summary: `${resource.name}: export to Excel` },
      ),
      async (request, reply) => {
        const query = request.query as z.output<R['listQuery']>;
        const rows = await inTenant(request, async (ctx) => {
          const all: Row[] = [];
          for (let pageNum = 1; all.length < EXPORT_LIMIT; pageNum++) {
            const page = await list(ctx, { ...query, pageNum, pageSize: PAGE });
            all.push(...page.list);
            if (page.list.length < PAGE) break;
          }
          return all;
        });
        recordAudit(request, { target: `${rows.length} rows` });
        const file = await workbookOf(resource.name, columns, rows);
        return reply
          .header('content-type', XLSX_TYPE)
          .header('content-disposition', `attachment; filename="${resource.name}-${new Date().toISOString().slice(0, 10)}.xlsx"`)
          .send(file);
      },
    );
}
