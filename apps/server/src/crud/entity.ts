import type { EntityManifest, FieldMeta } from '@atrium/contracts';
import { codeLabels } from '@atrium/contracts/labels';
import { bilingual } from '@atrium/contracts/strings';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { type Bilingual, type ExcelColumn, registerExport } from './excel';
import { type ResourceHandlers, registerResource } from './register-resource';
import { type RepositoryOptions, tableRepository } from './repository';

/**
 * Export columns from the manifest's list columns, in the requester's language: headers and option
 * values from the label registry or the manifest's labels, times in the requester's time zone, money in yuan, yes/no words.
 */
export function exportColumns(fields: readonly FieldMeta[]): ExcelColumn<Record<string, unknown>>[] {
  const yes = bilingual('erp.yes');
  const no = bilingual('erp.no');
  return fields
    .filter((f) => f.column !== false)
    .map((f) => {
      const header = bilingual(f.label);
      // a field of codes: the registry's words; other options: their manifest labels
      const labels: Record<string, Bilingual> | undefined = f.codes
        ? codeLabels[f.codes]
        : f.options
          ? Object.fromEntries(f.options.map((o) => [String(o.value), bilingual(o.label)]))
          : undefined;
      return {
        header: header.en,
        zh: header.zh,
        key: f.field,
        width: f.exportWidth,
        time: f.widget === 'datetime',
        labels: f.widget === 'switch' ? { true: yes, false: no } : labels,
        value: (row) => {
          const v = row[f.field];
          if (v === null || v === undefined) return null;
          if (f.widget === 'money' && typeof v === 'number') return v / 100;
          if (typeof v === 'boolean') return String(v);
          if (Array.isArray(v)) return v.join(', ');
          return typeof v === 'number' || typeof v === 'string' ? v : JSON.stringify(v);
        },
      };
    });
}

/**
 * Registers an entity from its manifest: the conventional routes of its resource and, when the
 * contract lists `export`, the Excel export of the manifest's list columns.
 */
/** Every manifest the server registers, in the order registered (the entity test kit checks it covers them all). */
const registered = new Set<EntityManifest>();
export const registeredEntities = (): EntityManifest[] => [...registered];

export function registerEntity<Item, Create, Update, Query>(
  app: FastifyInstance,
  manifest: EntityManifest,
  handlers: ResourceHandlers<Item, Create, Update, Query>,
) {
  registered.add(manifest);
  // the manifest's resource is the handlers' contract; its types were checked where the handlers were made
  registerResource(app, manifest.resource, handlers as never);
  if (manifest.resource.has('export')) {
    registerExport(app, manifest.resource, handlers.list as never, exportColumns(manifest.fields ?? []));
  }
}

/**
 * An entity whose handlers are the generic repository over its table (`repository.ts`):
 * `registerTable(app, supplierEntity, erpSuppliers)`, with the repository's options where it needs them.
 */
export function registerTable(app: FastifyInstance, manifest: EntityManifest, table: PgTable, options?: RepositoryOptions<unknown>) {
  registerEntity(app, manifest, tableRepository(manifest.resource, table, options));
}
