// The OpenAPI document the server publishes, and how it may change: by additions only.
//
// `npm run openapi:snapshot -w apps/server` writes the document of the sources as they are to
// `test/fixtures/openapi.json`, built on an empty embedded database; `test/openapi.test.ts` fails when the
// served document drops or changes anything of that snapshot. Refresh the snapshot when a change is meant
// to add (new routes, fields), and in a reviewed commit of its own when it is meant to change the API.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';

export const snapshotFile = fileURLToPath(new URL('../test/fixtures/openapi.json', import.meta.url));

/** Parts of the document that change with each release and are no part of the API. */
const ignored = new Set(['info.version']);

/**
 * What `next` lost or changed of `before`: objects may gain keys, arrays may gain items (an enum a value, a
 * list of parameters one more), except `required` of what a request sends, which may not grow (a request
 * that passed would fail); an answer may always promise more fields.
 */
export function changesBesidesAdditions(before: unknown, next: unknown, at = ''): string[] {
  if (ignored.has(at)) return [];
  if (Array.isArray(before)) {
    if (!Array.isArray(next)) return [`${at}: was a list`];
    const missing = before.filter((item) => !next.some((n) => changesBesidesAdditions(item, n).length === 0));
    const problems = missing.map((item) => `${at}: lost ${JSON.stringify(item).slice(0, 200)}`);
    if (at.endsWith('.required') && !/(^|\.)responses\./.test(at) && next.length > before.length) {
      const added = next.filter((n) => !before.includes(n));
      problems.push(`${at}: now also requires ${JSON.stringify(added)}`);
    }
    return problems;
  }
  if (before !== null && typeof before === 'object') {
    if (next === null || typeof next !== 'object' || Array.isArray(next)) return [`${at}: was an object`];
    return Object.entries(before).flatMap(([key, value]) =>
      key in next
        ? changesBesidesAdditions(value, (next as Record<string, unknown>)[key], at ? `${at}.${key}` : key)
        : [`${at ? `${at}.` : ''}${key}: removed`],
    );
  }
  return before === next ? [] : [`${at}: ${JSON.stringify(before)} → ${JSON.stringify(next)}`];
}

/** The document of these sources, served by an app on a fresh embedded database. */
export async function currentDocument(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'atrium-openapi-'));
  try {
    const config = loadConfig({ LOG_LEVEL: 'silent', SEED: 'none', API_DOCS: 'on', DATA_DIR: dir, MQTT_WS_PORT: '0' });
    const database = await openDatabase({ engine: 'pglite', dataDir: path.join(dir, 'db') });
    const app = await buildApp({ config, database, logger: false });
    try {
      await app.ready();
      return (await app.inject('/api/docs/json')).json();
    } finally {
      await app.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const document = await currentDocument();
  await writeFile(snapshotFile, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), snapshotFile)}: ${Object.keys(document.paths as object).length} paths`);
}
