import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serverDir } from './paths';

/**
 * The release this server is: the version in the repository's package.json (CHANGELOG.md), read once at
 * start. Every answer but the web build's hashed files names it in `x-atrium-release`, so a browser
 * tab running another release's code learns it is out of date (apps/web/src/app/release.ts).
 */
export const release: string = (() => {
  try {
    return (JSON.parse(readFileSync(path.resolve(serverDir, '../../package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
})();

export const RELEASE_HEADER = 'x-atrium-release';
