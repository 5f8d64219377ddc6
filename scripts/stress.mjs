// `npm run test:stress`: the whole `npm test` while a CPU hog keeps every core busy, as on a shared
// machine where other work runs. A test that fails here and passes on a quiet machine depends on the
// machine's speed: that is a defect of the test (or of the product, when the product cannot stand load).
//
// The hog is one spinning process per core, at the same priority as the tests, each stopping by itself
// after STRESS_MAX_MINUTES (default 60) and in any case when the run ends. Arguments go to npm test.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { root, say } from './lib.mjs';

const cores = os.availableParallelism?.() ?? os.cpus().length;
const maxMinutes = Number(process.env.STRESS_MAX_MINUTES ?? 60);
const spin = `const end = Date.now() + ${Math.round(maxMinutes * 60_000)}; while (Date.now() < end) { for (let i = 0; i < 1e6; i++); }`;
const hogs = Array.from({ length: cores }, () => spawn(process.execPath, ['-e', spin], { stdio: 'ignore' }));
const stopHogs = () => {
  for (const hog of hogs) if (hog.exitCode === null) hog.kill('SIGKILL');
};
process.on('exit', stopHogs);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1));

say(`npm test with ${cores} spinning processes beside it (one per core, at most ${maxMinutes} min)`);
const started = Date.now();
const test = spawn(process.execPath, [path.join(root, 'scripts/test.mjs'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
test.on('exit', (code) => {
  stopHogs();
  say(
    `under load: npm test ${code === 0 ? 'passed' : 'failed'} in ${((Date.now() - started) / 60_000).toFixed(1)} min (load average now ${os.loadavg()[0].toFixed(1)})`,
  );
  process.exit(code ?? 1);
});
