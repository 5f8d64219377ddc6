// Shared by `npm start` and `npm test`: make the checkout runnable with nothing but Node.js installed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function say(message) {
  process.stdout.write(`\x1b[36m›\x1b[0m ${message}\n`);
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

export function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`Atrium needs Node.js 20.19 or newer; this is ${process.versions.node}.`);
    process.exit(1);
  }
}

/** Installs dependencies when node_modules is missing or older than package-lock.json. */
export function ensureDependencies() {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.atrium-lock-hash');
  const lockHash = () => createHash('sha256').update(readFileSync(lock)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === lockHash()) return;
  // `npm install` rather than `npm ci`: ci rejects a lock file that omits optional platform packages
  // the registry does not carry, which install tolerates; with the committed lock both install the same tree
  say('installing dependencies…');
  if (run(npm, ['install', '--no-audit', '--no-fund']) !== 0) {
    console.error('npm install failed; see the messages above.');
    process.exit(1);
  }
  writeFileSync(stamp, lockHash());
}

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) {
    if (name === 'node_modules' || name === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

/** Builds the web app when its sources (or the shared contracts) changed since the last build. */
export function ensureWebBuild({ force = false } = {}) {
  const web = path.join(root, 'apps/web');
  const built = path.join(web, 'dist/index.html');
  const sources = [
    path.join(web, 'src'),
    path.join(web, 'public'),
    path.join(web, 'index.html'),
    path.join(web, 'vite.config.ts'),
    path.join(web, 'package.json'),
    path.join(root, 'packages/contracts/src'),
    path.join(root, 'package-lock.json'),
  ];
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (!force && builtAt > Math.max(...sources.map(newestMtime))) return;
  say('building the web app…');
  if (run(npm, ['run', 'build', '-w', 'apps/web']) !== 0) {
    console.error('The web build failed; see the messages above.');
    process.exit(1);
  }
}
