// Installs what the tests need from Debian's packages when it is missing: Chromium (with CJK fonts, so
// Chinese pages render) for the budget and browser steps, redis-server for the suite that stops and
// starts a Redis of its own. Without root or apt-get it says what to install and fails.
//
// node scripts/debian-packages.mjs chromium redis-server
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** What each tool needs, and how to tell it is there. */
const tools = {
  chromium: {
    packages: ['chromium', 'fonts-noto-cjk'],
    present: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
    hint: 'or set CHROMIUM_PATH to a Chromium binary',
  },
  'redis-server': { packages: ['redis-server'], present: () => onPath('redis-server'), hint: '' },
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in tools));
if (unknown.length) {
  console.error(`debian-packages: unknown tool ${unknown.join(', ')} (known: ${Object.keys(tools).join(', ')})`);
  process.exit(2);
}
const missing = asked.filter((name) => !tools[name].present());
if (missing.length === 0) process.exit(0);

const packages = missing.flatMap((name) => tools[name].packages);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && existsSync('/usr/bin/apt-get')) {
  console.log(`${missing.join(' and ')} missing: installing Debian's ${packages.join(', ')} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const quiet = { stdio: ['ignore', 'ignore', 'inherit'], env };
  const ok =
    spawnSync('apt-get', ['update', '-qq'], quiet).status === 0 &&
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], quiet).status === 0;
  if (ok && missing.every((name) => tools[name].present())) process.exit(0);
}
for (const name of missing.filter((n) => !tools[n].present()))
  console.error(
    `${name} was not found. Install it (Debian: \`sudo apt-get install ${tools[name].packages.join(' ')}\`)${tools[name].hint ? ` ${tools[name].hint}` : ''}.`,
  );
process.exit(1);
