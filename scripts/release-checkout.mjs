// A runnable copy of an earlier release, for the two-release test (docs/testing.md, "upgrade"): the
// release's files from git (a tag such as v0.2.0, or a commit), its own locked dependencies and its own
// server bundle, in a directory of its own under the system's temporary folder. Kept between runs,
// keyed by commit: a second run reuses it.
//
// node scripts/release-checkout.mjs [ref]    ref: default package.json's atrium.previousRelease
// prints the directory on the last line of stdout
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './lib.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The release the two-release test runs beside this one, as package.json names it. */
export function previousRelease() {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const previous = manifest.atrium?.previousRelease;
  if (!previous?.commit) throw new Error('package.json names no atrium.previousRelease { version, commit }');
  return previous;
}

function git(args, options = {}) {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8', ...options });
  return { status: result.status ?? 1, out: (result.stdout ?? '').trim(), err: (result.stderr ?? '').trim() };
}

function resolveCommit(ref) {
  const found = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (found.status === 0) return found.out;
  // a shallow clone holds only the newest commits: ask its origin for the rest once
  if (git(['rev-parse', '--is-shallow-repository']).out === 'true') {
    git(['fetch', '--quiet', '--unshallow', '--tags'], { stdio: 'inherit' });
    const again = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    if (again.status === 0) return again.out;
  }
  throw new Error(`release ${ref} is not in this clone's history (a shallow clone? fetch it with git fetch --unshallow --tags)`);
}

function step(what, command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`${what} failed (exit status ${result.status ?? result.signal})`);
}

/** Where release `ref` is (or will be) checked out. */
export function releaseDir(ref) {
  return path.join(os.tmpdir(), 'atrium-releases', resolveCommit(ref));
}

/** Checks out, installs and builds `ref`; returns its directory. */
export function checkoutRelease(ref) {
  const dir = releaseDir(ref);
  const commit = path.basename(dir);
  if (existsSync(path.join(dir, '.atrium-release-ready'))) return dir;
  const work = `${dir}.partial-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const archive = spawnSync('git', ['archive', '--format=tar', commit], { cwd: root, maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-x', '-C', work], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`unpacking ${commit} failed: ${untar.stderr}`);
  // its own lock, exactly; no install scripts (the releases since 0.2.0 allow none, and none needs one)
  const install = ['--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
  try {
    step(`npm ci of ${ref}`, npm, ['ci', ...install], work);
  } catch (error) {
    // 0.1.0's own start script rewrote its lock without other platforms' packages, so npm ci refuses
    // it; npm install takes the same locked versions and adds what is missing
    if (existsSync(path.join(work, 'apps/server/build.mjs'))) throw error;
    step(`npm install of ${ref}`, npm, ['install', ...install], work);
  }
  // releases since 0.2.0 run a compiled server; 0.1.0 ran its sources with tsx
  if (existsSync(path.join(work, 'apps/server/build.mjs')))
    step(`building ${ref}'s server`, npm, ['run', 'build', '--silent', '-w', 'apps/server'], work);
  writeFileSync(path.join(work, '.atrium-release-ready'), `${ref} ${commit}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
  return dir;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const ref = process.argv[2] ?? previousRelease().commit;
  console.log(checkoutRelease(ref));
}
