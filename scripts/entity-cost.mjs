// `node scripts/entity-cost.mjs [entity…] [--files]`: what a simple entity costs, counted in full — the
// non-blank lines of every source file of the apps and packages that it touches: its own files (named for
// it: `erp/supplier.ts`, `system/post/`) whole, and in shared files each line that names it, with the whole
// statement such a line opens (its table, its registration, its strings in both languages and both copies,
// its menu labels, its page entry, its import and export lines). Tests, seeds and generated migrations are
// not counted. Default: supplier, warehouse, spec, post and dept. `--files` lists the lines per file.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './lib.mjs';

const folders = ['apps/server/src', 'apps/web/src', 'packages/contracts/src'];
const SOURCE = /\.(ts|tsx)$/;
const SKIPPED = /\.test\.tsx?$|\.d\.ts$|\/seed\//;

const files = folders.flatMap((folder) =>
  readdirSync(path.join(root, folder), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((f) => !SKIPPED.test(f)),
);

/**
 * Whether a line names the entity: an identifier it defines (`supplierEntity`, `SupplierPage`, `erpSuppliers`,
 * `systemPost`, a `supplier:` key, a module constant `posts`) or a string with it as a segment (`'erp.supplier.name'`, `'/erp/supplier'`,
 * `'system:post:query'`, `'erp_suppliers'`). An identifier counts on the line that declares, imports, lists or
 * registers it, not where other code uses it; comments are left out, and so are references from another
 * entity (`supplierId`) and words that only look like it (`app.post(`, "spec 4").
 */
const nameOf = (entity) => {
  const E = entity[0].toUpperCase() + entity.slice(1);
  const suffix = '(?:Entity|Resource|Repository|Routes|Schema|Input|Query)';
  const identifier = new RegExp(
    `(?<![\\w$.])(?:[a-z]+${E}(?:e?s)?${suffix}?|${E}(?:e?s)?${suffix}?(?:Page)?|${entity}${suffix})(?![\\w$])`,
  );
  const key = new RegExp(`^\\s*${entity}:`);
  // a module-level constant named for it alone, such as the table `posts`
  const declared = new RegExp(`^export const ${entity}(?:e?s)? =`);
  const segment = new RegExp(`(?:^|[.:/_])${entity}(?:e?s)?(?:[.:/_]|$)`);
  const strings = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g;
  return {
    test(line) {
      const trimmed = line.trim();
      if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return false;
      const code = line.replace(/\/\/.*$/, '');
      if (key.test(code) || declared.test(code)) return true;
      for (const m of code.matchAll(strings)) if (segment.test(m[1] ?? m[2])) return true;
      // an identifier counts where it is declared, imported, listed or registered, not where other code uses it
      const bare = code.replace(strings, "''");
      if (!identifier.test(bare)) return false;
      return /^\s*(?:export\s+|import\s|\}\s*from|(?:const|let|function|class|type|interface)\s)|^\s*[\w$]+,?\s*$|^\s*[\w$]+:|\b(?:register\w*|entityPage|tableRepository|defineResource)\(/.test(
        bare,
      );
    },
  };
};

const nonBlank = (lines) => lines.filter((l) => l.trim() !== '').length;
const balance = (line) => {
  const code = line.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|\/\/.*$/g, '');
  return (code.match(/[([{]/g) ?? []).length - (code.match(/[)\]}]/g) ?? []).length;
};

/** The lines of `text` that name the entity, each with the rest of the statement it opens. */
function touched(text, name) {
  const lines = text.split('\n');
  const kept = new Set();
  for (let i = 0; i < lines.length; i++) {
    if (!name.test(lines[i])) continue;
    kept.add(i);
    let open = balance(lines[i]);
    for (let j = i + 1; open > 0 && j < lines.length; j++) {
      kept.add(j);
      open += balance(lines[j]);
    }
  }
  return [...kept].map((i) => lines[i]);
}

function cost(entity) {
  const name = nameOf(entity);
  const own = (file) => file.split('/').some((part) => part.replace(SOURCE, '') === entity);
  const perFile = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const lines = own(file) ? text.split('\n') : touched(text, name);
    const count = nonBlank(lines);
    if (count) perFile.push({ file, lines: count, whole: own(file) });
  }
  return perFile;
}

const args = process.argv.slice(2);
const entities = args.filter((a) => !a.startsWith('-'));
const rows = (entities.length ? entities : ['supplier', 'warehouse', 'spec', 'post', 'dept']).map((entity) => {
  const perFile = cost(entity);
  if (args.includes('--files')) {
    console.log(`\n${entity}`);
    for (const f of perFile) console.log(`  ${String(f.lines).padStart(4)}  ${f.file}${f.whole ? ' (whole file)' : ''}`);
  }
  return { entity, files: perFile.length, lines: perFile.reduce((sum, f) => sum + f.lines, 0) };
});
console.table(rows);
