import type { EntityManifest, FieldMeta } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { type ExcelColumn, registerExport } from './excel';
import { type ResourceHandlers, registerResource } from './register-resource';

/** Export columns from the manifest's list columns. */
function exportColumns(fields: readonly FieldMeta[]): ExcelColumn<Record<string, unknown>>[] {
  return fields
    .filter((f) => f.column !== false)
    .map((f) => ({
      header: f.field,
      key: f.field,
      value: (row) => {
        const v = row[f.field];
        if (v === null || v === undefined) return null;
        if (f.widget === 'money' && typeof v === 'number') return v / 100;
        return typeof v === 'number' || typeof v === 'string' ? v : JSON.stringify(v);
      },
    }));
}

/**
 * Registers an entity from its manifest: the conventional routes of its resource and, when the
 * contract lists `export`, the Excel export of the manifest's list columns.
 */
export function registerEntity<Item, Create, Update, Query>(
  app: FastifyInstance,
  manifest: EntityManifest,
  handlers: ResourceHandlers<Item, Create, Update, Query>,
) {
  // the manifest's resource is the handlers' contract; its types were checked where the handlers were made
  registerResource(app, manifest.resource, handlers as never);
  if (manifest.resource.has('export')) {
    registerExport(app, manifest.resource, handlers.list as never, exportColumns(manifest.fields ?? []));
  }
}
