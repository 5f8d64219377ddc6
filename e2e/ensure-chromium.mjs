// Browser tests drive Debian's Chromium; no browser can be downloaded here. Install it when we can.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(chromium)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && existsSync('/usr/bin/apt-get')) {
  console.log("Chromium is missing: installing Debian's chromium and CJK fonts with apt-get…");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
  const install =
    update.status === 0 &&
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium', 'fonts-noto-cjk'], { stdio: 'inherit', env });
  if (install && install.status === 0 && existsSync(chromium)) process.exit(0);
}
console.error(
  `Chromium was not found at ${chromium}. Install it (Debian: \`sudo apt-get install chromium fonts-noto-cjk\`) or set CHROMIUM_PATH to a Chromium binary.`,
);
process.exit(1);
