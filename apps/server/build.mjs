// Builds the server to one JavaScript file, dist/main.js, run with plain `node` (docs/adr/004).
// Our own code and the workspace contracts (TypeScript sources) are bundled; npm dependencies stay
// imports, resolved from node_modules at run time. Text assets read at run time are copied next to it.
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
// `--outdir <name>`: another folder beside dist/ (tests build their own copy); it must sit directly in
// this package, where the server finds drizzle/ and the web build (src/paths.ts)
const outdirArg = process.argv.indexOf('--outdir');
const outdir = outdirArg > 0 ? process.argv[outdirArg + 1] : 'dist';
if (!outdir || !/^\w[\w.-]*$/.test(outdir)) throw new Error('--outdir takes a folder name inside apps/server');
const dist = path.join(here, outdir);
const { dependencies } = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));

rmSync(dist, { recursive: true, force: true });
await build({
  // the server, and the key rotation command (npm run secrets:rotate: node dist/secrets-rotate.js)
  entryPoints: { main: path.join(here, 'src/main.ts'), 'secrets-rotate': path.join(here, 'src/secrets/rotate.ts') },
  outdir: dist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // a package named here is external with all its subpaths (drizzle-orm/pg-core, …)
  external: Object.keys(dependencies),
  sourcemap: 'linked',
  // stack traces point into src/ (the map is next to main.js)
  banner: { js: 'process.setSourceMapsEnabled(true);' },
  // no keepNames: it wraps every function the code makes in a call that defines its name, closures
  // made per request too (a list request's CPU went down 5 % without it, docs/performance.md)
  logLevel: 'warning',
});
copyFileSync(path.join(here, 'src/modules/auth/common-passwords.txt'), path.join(dist, 'common-passwords.txt'));
console.log(`built ${path.relative(process.cwd(), path.join(dist, 'main.js'))}`);
