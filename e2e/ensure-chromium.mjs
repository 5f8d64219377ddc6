// Browser tests drive Debian's Chromium; no browser can be downloaded here. Install it when we can.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../scripts/debian-packages.mjs', import.meta.url));
process.exit(spawnSync(process.execPath, [script, 'chromium'], { stdio: 'inherit' }).status ?? 1);
