// Bundle budgets: sizes each route of the production web build (gzip, JS + CSS) from Vite's manifest
// and fails when a route or a single chunk is over its budget in bench/budgets.json. Bytes are
// deterministic, so this runs in `npm test`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; imports?: string[]; css?: string[] };
type Budgets = { maxChunkGzip: number; routes: { name: string; modules: string[]; maxGzip: number }[] };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'apps/web/dist');
const manifestFile = path.join(dist, '.vite/manifest.json');
if (!existsSync(manifestFile)) {
  console.error('No web build manifest: run `npm run build -w apps/web` first.');
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
const budgets = JSON.parse(readFileSync(path.join(root, 'bench/budgets.json'), 'utf8')) as Budgets;

const gzipCache = new Map<string, number>();
function gzipSize(file: string): number {
  let size = gzipCache.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
    gzipCache.set(file, size);
  }
  return size;
}

/** The files a module needs before it runs: itself, its CSS and its static imports, transitively. */
function closure(key: string, files = new Set<string>(), seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return files;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`module ${key} is not in the build manifest (renamed? update bench/budgets.json)`);
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) closure(imported, files, seen);
  return files;
}

const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry)?.[0];
if (!entry) throw new Error('the build manifest has no entry');
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
let failures = 0;

console.log('route budgets (gzip, JS + CSS, entry included):');
for (const route of budgets.routes) {
  const files = closure(entry);
  for (const module of route.modules) closure(module, files);
  const total = [...files].reduce((sum, file) => sum + gzipSize(file), 0);
  const ok = total <= route.maxGzip;
  if (!ok) failures++;
  console.log(`  ${ok ? '✓' : '✗'} ${route.name.padEnd(16)} ${kb(total).padStart(10)} / ${kb(route.maxGzip)}  (${files.size} files)`);
}

const chunks = Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? [])]);
const oversized = [...new Set(chunks)].filter((file) => file.endsWith('.js') && gzipSize(file) > budgets.maxChunkGzip);
for (const file of oversized) {
  failures++;
  console.log(`  ✗ chunk ${file} is ${kb(gzipSize(file))}, over ${kb(budgets.maxChunkGzip)}`);
}
if (!oversized.length) console.log(`  ✓ no JS chunk over ${kb(budgets.maxChunkGzip)}`);
console.log(`budget: ${budgets.routes.length + 1 - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
