// `node scripts/entity-cost.mjs [entity…]`: the non-blank lines a simple ERP entity costs — its contract
// file (schemas, resource, manifest), its table, its server registration, its page entry, its line in
// the manifest list and its strings in both languages. Rules of its own (one default warehouse…) are
// not counted. Default: warehouse, spec and supplier.
import { readFileSync } from 'node:fs';

const read = (file) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const nonBlank = (text) => text.split('\n').filter((l) => l.trim() !== '').length;

/**
 * The statement around the first line matching `start`: from the nearest line at or above it that
 * matches `opener` up to its closing `);` at the same indent.
 */
function block(text, start, opener = start) {
  const lines = text.split('\n');
  let first = lines.findIndex((l) => start.test(l));
  if (first < 0) return '';
  while (first > 0 && !opener.test(lines[first])) first--;
  const indent = lines[first].match(/^\s*/)[0];
  if (lines[first].trimEnd().endsWith(');')) return lines[first];
  const last = lines.findIndex((l, i) => i > first && l.startsWith(`${indent});`));
  return lines.slice(first, last + 1).join('\n');
}

const entities = process.argv.slice(2).length ? process.argv.slice(2) : ['warehouse', 'spec', 'supplier'];
const schema = read('apps/server/src/db/schema/erp.ts');
const routes = read('apps/server/src/modules/erp/simple.ts');
const pages = read('packages/contracts/src/erp/pages.ts');
const manifest = read('packages/contracts/src/erp/manifest.ts');
const messages = read('packages/contracts/src/erp/messages.ts');

const rows = entities.map((e) => {
  const table = `erp${e[0].toUpperCase()}${e.slice(1)}s`;
  const cost = {
    entity: e,
    contract: nonBlank(read(`packages/contracts/src/erp/${e}.ts`)),
    table: nonBlank(block(schema, new RegExp(`^export const ${table} = pgTable`))),
    registration: nonBlank(block(routes, new RegExp(`^\\s*(registerEntity\\(app, )?${e}Entity,`), /registerEntity\(/)),
    page: pages.split('\n').filter((l) => l.startsWith(`  ${e}: `)).length,
    manifestList: manifest.split('\n').filter((l) => l.trim() === `${e}Entity,`).length,
    strings: messages.split('\n').filter((l) => l.includes(`'erp.${e}.`)).length,
  };
  return { ...cost, total: cost.contract + cost.table + cost.registration + cost.page + cost.manifestList + cost.strings };
});
console.table(rows);
