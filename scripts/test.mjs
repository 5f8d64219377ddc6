// `npm test`: every check the project has, in order — typecheck, lint, API tests, build, transfer budgets, browser tests.
import path from 'node:path';
import { checkNode, ensureDependencies, ensureServerBuild, ensureWebBuild, root, run, say } from './lib.mjs';

checkNode();
ensureDependencies();

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const only = process.argv.slice(2);
const steps = [
  [
    'typecheck',
    () =>
      run(npx, ['tsc', '-p', 'apps/server']) ||
      run(npx, ['tsc', '-p', 'packages/agent']) ||
      run(npx, ['tsc', '-p', 'apps/web']) ||
      run(npx, ['tsc', '-p', 'e2e']) ||
      run(npx, ['tsc', '-p', 'bench']),
  ],
  ['lint', () => run(npx, ['biome', 'ci', '.'])],
  [
    'unit',
    () =>
      run(npx, ['vitest', 'run'], { cwd: path.join(root, 'apps/web') }) ||
      run(npx, ['vitest', 'run'], { cwd: path.join(root, 'packages/contracts') }),
  ],
  ['api', () => run(npx, ['vitest', 'run'], { cwd: path.join(root, 'apps/server') })],
  [
    'build',
    () => {
      ensureWebBuild({ force: true });
      ensureServerBuild({ force: true });
      return 0;
    },
  ],
  ['budget', () => run(process.execPath, ['--import', 'tsx', 'bench/src/budget.ts'])],
  [
    'browser',
    () => run(process.execPath, ['e2e/ensure-chromium.mjs']) || run(npx, ['playwright', 'test', '-c', 'e2e/playwright.config.ts']),
  ],
];

const results = [];
for (const [name, step] of steps) {
  if (only.length && !only.includes(name)) continue;
  say(`${name}…`);
  const started = Date.now();
  const status = step();
  results.push({ name, ok: status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) });
  if (status !== 0) break;
}
console.log('');
for (const r of results) console.log(`${r.ok ? '✓' : '✗'} ${r.name.padEnd(10)} ${r.seconds}s`);
const failed = results.filter((r) => !r.ok).length;
console.log(`steps: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
