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

/**
 * Installs dependencies when node_modules is missing or was installed from another package-lock.json:
 * `npm ci`, exactly the locked tree (the lock holds every platform's optional packages); `npm install`
 * only when there is no lock yet.
 */
export function ensureDependencies() {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.atrium-lock-hash');
  const hasLock = existsSync(lock);
  const lockHash = () => (hasLock ? createHash('sha256').update(readFileSync(lock)).digest('hex') : 'no lock');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === lockHash()) return;
  // installed by hand (`npm ci`) since the lock last changed: npm's own record of the tree is newer than
  // the lock, so a second install would only wipe node_modules, under whatever is running from it
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  if (hasLock && existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) {
    writeFileSync(stamp, lockHash());
    return;
  }
  const command = hasLock ? 'ci' : 'install';
  say(`installing dependencies (npm ${command})…`);
  if (run(npm, [command, '--no-audit', '--no-fund']) !== 0) {
    console.error(`npm ${command} failed; see the messages above.`);
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

/**
 * Runs `npm run build` in a workspace when any of its sources changed since `built` was written; quietly
 * (no npm banner), with `buildArgs` for the build tool. Warnings and errors still show.
 */
function ensureBuilt({ name, workspace, built, sources, force, buildArgs = [] }) {
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (!force && builtAt > Math.max(...sources.map(newestMtime))) return;
  say(`building ${name}…`);
  if (run(npm, ['run', 'build', '--silent', '-w', workspace, ...(buildArgs.length ? ['--', ...buildArgs] : [])]) !== 0) {
    console.error(`The ${name} build failed; see the messages above.`);
    process.exit(1);
  }
}

const shared = [path.join(root, 'packages/contracts/src'), path.join(root, 'package-lock.json')];

/** Builds the web app when its sources (or the shared contracts) changed since the last build. */
export function ensureWebBuild({ force = false } = {}) {
  const web = path.join(root, 'apps/web');
  ensureBuilt({
    name: 'the web app',
    workspace: 'apps/web',
    built: path.join(web, 'dist/index.html'),
    sources: [
      path.join(web, 'src'),
      path.join(web, 'public'),
      path.join(web, 'build'),
      path.join(web, 'index.html'),
      path.join(web, 'vite.config.ts'),
      path.join(web, 'package.json'),
      ...shared,
    ],
    // Vite's list of every asset it wrote (some 400 lines) is for whoever runs the build by hand
    buildArgs: ['--logLevel', 'warn'],
    force,
  });
}

/** Builds the server (dist/main.js) when its sources (or the shared contracts) changed since the last build. */
export function ensureServerBuild({ force = false } = {}) {
  const server = path.join(root, 'apps/server');
  ensureBuilt({
    name: 'the server',
    workspace: 'apps/server',
    built: path.join(server, 'dist/main.js'),
    sources: [path.join(server, 'src'), path.join(server, 'build.mjs'), path.join(server, 'package.json'), ...shared],
    force,
  });
}
