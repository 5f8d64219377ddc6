// `npm test`: every check the project has — typecheck, lint, unit tests, build, API tests, transfer
// budgets, browser tests. Steps that do not depend on each other run side by side: the checks of the
// sources (typecheck → lint → unit) beside build → tools → API → browser, the transfer budget beside the
// API tests, the previous release's checkout beside them; they all run the compiled server. At the end
// one table says what each step ran, passed, failed and skipped, and why a step did not run; its last
// line counts every test.
//
// `npm test -- api browser` runs only the named steps (and says so for the others).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkNode, ensureDependencies, root, say } from './lib.mjs';
import { previousRelease, releaseDir } from './release-checkout.mjs';

checkNode();
ensureDependencies();

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const only = process.argv.slice(2);
// the upgrade rehearsal needs the previous release checked out (the release step)
if (only.includes('upgrade') && !only.includes('release')) only.push('release');
const reports = mkdtempSync(path.join(os.tmpdir(), 'atrium-test-'));

/** Runs a command with inherited output; resolves to its exit status. */
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });
}

/** Runs commands one after the other, stopping at the first that fails. */
async function series(...commands) {
  for (const [command, args, options] of commands) {
    const status = await run(command, args, options);
    if (status !== 0) return status;
  }
  return 0;
}

const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

/** Counts from a vitest JSON report (a missing report counts nothing: the step's status says why). */
function vitestCounts(file) {
  const report = readJson(file);
  if (!report) return null;
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

/** Counts from a Playwright JSON report: a test that passed on its retry is passed, and named as flaky. */
function playwrightCounts(file) {
  const report = readJson(file);
  if (!report) return null;
  const { expected, unexpected, flaky, skipped } = report.stats;
  return { passed: expected + flaky, failed: unexpected, skipped, note: flaky ? `${flaky} passed only on retry` : '' };
}

/** Two steps' counts as one; the notes of both kept. */
const addCounts = (a, b) => ({
  passed: a.passed + b.passed,
  failed: a.failed + b.failed,
  skipped: a.skipped + b.skipped,
  note: [a.note, b.note].filter(Boolean).join('; '),
});

/** A vitest run of one workspace, with its counts. */
async function vitest(name, cwd, { args = [], env = {} } = {}) {
  const file = path.join(reports, `${name}.json`);
  const status = await run(npx, ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`], {
    cwd: path.join(root, cwd),
    env: { ...process.env, ...env },
  });
  return { status, counts: vitestCounts(file) };
}

const steps = {
  typecheck: async () => ({
    status: await series(
      ...['apps/server', 'packages/agent', 'apps/web/tsconfig.test.json', 'packages/contracts', 'e2e', 'bench'].map((project) => [
        npx,
        ['tsc', '-p', project],
      ]),
    ),
  }),
  lint: async () => ({ status: await run(npx, ['biome', 'ci', '.']) }),
  // quietly: Vite's list of every asset it wrote is for whoever runs the build by hand
  build: async () => ({
    status: await series(
      [npm, ['run', 'build', '--silent', '-w', 'apps/web', '--', '--logLevel', 'warn']],
      [npm, ['run', 'build', '--silent', '-w', 'apps/server']],
    ),
  }),
  // the web app's and the contracts' pure logic, in Node
  unit: async () => {
    const web = await vitest('unit-web', 'apps/web');
    const contracts = await vitest('unit-contracts', 'packages/contracts');
    const counts = [web.counts, contracts.counts].filter(Boolean);
    return {
      status: web.status || contracts.status,
      counts: counts.length ? counts.reduce(addCounts) : null,
    };
  },
  // Debian's Chromium (the budget and browser steps drive it) and redis-server (the Redis outage suite
  // starts and stops one of its own), installed when missing
  tools: async () => ({ status: await run(process.execPath, ['scripts/debian-packages.mjs', 'chromium', 'redis-server']) }),
  api: () => vitest('api', 'apps/server'),
  // the previous release (package.json atrium.previousRelease, checked out and built on its own) and
  // this one side by side on one PostgreSQL database: a rolling upgrade, rehearsed
  // the previous release's files, dependencies and build, made ready while the API tests run (mostly
  // waiting on the disk and the registry)
  release: async () => ({ status: await run(process.execPath, ['scripts/release-checkout.mjs']) }),
  upgrade: async () => {
    const dir = releaseDir(previousRelease().commit);
    return vitest('upgrade', 'apps/server', { args: ['-c', 'vitest.upgrade.config.ts'], env: { ATRIUM_PREVIOUS_RELEASE_DIR: dir } });
  },
  budget: async () => ({ status: await run(process.execPath, ['--import', 'tsx', 'bench/src/budget.ts']) }),
  // two lanes side by side, each with a server and data of its own (e2e/playwright.config.ts says which
  // specs each runs): one lane drives one page at a time and left a core idle
  browser: async () => {
    const port = Number(process.env.E2E_PORT ?? 18080);
    const lanes = await Promise.all(
      [1, 2].map(async (lane) => {
        const file = path.join(reports, `browser-${lane}.json`);
        const status = await run(npx, ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], {
          env: { ...process.env, E2E_LANE: String(lane), E2E_PORT: String(port + 100 * (lane - 1)), PLAYWRIGHT_JSON_OUTPUT_FILE: file },
        });
        return { status, counts: playwrightCounts(file) };
      }),
    );
    const counts = lanes.map((l) => l.counts).filter(Boolean);
    return {
      status: lanes.find((l) => l.status !== 0)?.status ?? 0,
      counts: counts.length ? counts.reduce(addCounts) : null,
    };
  },
};

// what runs after what: each entry waits for the ones it names
const plan = [
  ['typecheck', []],
  ['lint', ['typecheck']],
  ['unit', ['lint']],
  ['build', []],
  ['tools', ['build']],
  ['api', ['build', 'tools']],
  // bytes on the wire, not time: beside the API tests it takes their processor time only briefly
  ['budget', ['build', 'tools']],
  // the browser step drives one page at a time and leaves about one core idle, where the upgrade
  // rehearsal runs; the API tests then have both cores. The browser tests come after the API tests: beside
  // them the run was about a sixth shorter, but the API suites' agents and embedded brokers, starved of
  // processor time, lost connections (docs/testing.md)
  ['browser', ['api', 'budget']],
  // after the browser step: beside its two lanes the rehearsal's embedded-database restore ran out of time
  ['release', ['build']],
  ['upgrade', ['release', 'api', 'browser']],
];

/** The machine's processor time so far, busy and in all (Linux; null elsewhere). */
function cpuTimes() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = fields[3] + fields[4];
    const all = fields.reduce((a, b) => a + b, 0);
    return { busy: all - idle, all };
  } catch {
    return null;
  }
}
const cpuAtStart = cpuTimes();

const results = new Map();
const started = Date.now();
const finished = new Map();
for (const [name, after] of plan) {
  finished.set(
    name,
    (async () => {
      const before = await Promise.all(after.map((step) => finished.get(step)));
      // a step that failed, or did not run because one before it failed, stops every step after it
      const failedBefore = after
        .map((step, i) => before[i].blockedBy ?? (before[i].status !== 0 && before[i].status !== 'skipped' ? step : null))
        .find(Boolean);
      if (only.length && !only.includes(name)) {
        const result = { status: 'skipped', why: 'not asked for (npm test -- <steps>)' };
        results.set(name, result);
        return result;
      }
      if (failedBefore) {
        const result = { status: 'skipped', why: `${failedBefore} failed`, blockedBy: failedBefore };
        results.set(name, result);
        return result;
      }
      say(`${name}…`);
      const at = Date.now();
      let result;
      try {
        result = await steps[name]();
      } catch (error) {
        console.error(error);
        result = { status: 1 };
      }
      result.seconds = (Date.now() - at) / 1000;
      results.set(name, result);
      return result;
    })(),
  );
}
await Promise.all(finished.values());
rmSync(reports, { recursive: true, force: true });

console.log('');
const total = { passed: 0, failed: 0, skipped: 0 };
let failedSteps = 0;
for (const [name] of plan) {
  const r = results.get(name);
  const mark = r.status === 'skipped' ? '-' : r.status === 0 ? '✓' : '✗';
  if (r.status !== 0 && r.status !== 'skipped') failedSteps++;
  let detail;
  if (r.status === 'skipped') detail = `not run: ${r.why}`;
  else if (r.counts) {
    const { passed, failed, skipped, note } = r.counts;
    total.passed += passed;
    total.failed += failed;
    total.skipped += skipped;
    detail = `${passed} passed, ${failed} failed, ${skipped} skipped${note ? ` (${note})` : ''}`;
  } else detail = r.status === 0 ? 'ok' : `exit status ${r.status}`;
  console.log(`${mark} ${name.padEnd(10)} ${r.seconds === undefined ? '' : `${r.seconds.toFixed(0).padStart(5)}s`}  ${detail}`);
}
const cpuAtEnd = cpuTimes();
const busy =
  cpuAtStart && cpuAtEnd
    ? ` (processors ${Math.round((100 * (cpuAtEnd.busy - cpuAtStart.busy)) / (cpuAtEnd.all - cpuAtStart.all))}% busy)`
    : '';
console.log(`  ${'whole run'.padEnd(10)} ${((Date.now() - started) / 1000).toFixed(0).padStart(5)}s${busy}`);
// a step that failed without counting its tests (typecheck, lint, a crash) counts as one failure
total.failed = Math.max(total.failed, failedSteps);
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(failedSteps ? 1 : 0);
