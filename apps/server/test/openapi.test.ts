import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/client';
import { changesBesidesAdditions, snapshotFile } from '../tools/openapi';
import { createTestDatabase, oneEngine, type TestDatabase, testConfig } from './helper';

// The API changes by additions only: the served OpenAPI document keeps everything of the committed
// snapshot (`npm run openapi:snapshot -w apps/server` refreshes it; tools/openapi.ts says when).
describe.each(oneEngine)('OpenAPI document on %s', (engine) => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let testDatabase: TestDatabase;
  let snapshot: Record<string, unknown>;

  beforeAll(async () => {
    testDatabase = await createTestDatabase(engine);
    const database = await openDatabase(testDatabase.options);
    app = await buildApp({ config: testConfig({ SEED: 'none', API_DOCS: 'on' }), database, logger: false });
    await app.ready();
    snapshot = JSON.parse(await readFile(snapshotFile, 'utf8'));
  });
  afterAll(async () => {
    await app?.close();
    await testDatabase?.drop();
  });

  it('keeps every path, operation, parameter and schema of the snapshot', async () => {
    const document = (await app.inject('/api/docs/json')).json();
    expect(changesBesidesAdditions(snapshot, document)).toEqual([]);
  });

  it('tells an addition from a change', () => {
    const before = structuredClone(snapshot) as { paths: Record<string, Record<string, unknown>> };
    const [path, operations] = Object.entries(before.paths)[0] as [string, Record<string, unknown>];
    const next = structuredClone(before);
    next.paths['/api/added'] = operations;
    expect(changesBesidesAdditions(before, next)).toEqual([]);
    delete next.paths[path];
    expect(changesBesidesAdditions(before, next)).toEqual([`paths.${path}: removed`]);
    expect(changesBesidesAdditions({ enum: ['a'] }, { enum: ['a', 'b'] })).toEqual([]);
    expect(changesBesidesAdditions({ enum: ['a', 'b'] }, { enum: ['a'] })).toEqual(['enum: lost "b"']);
    expect(changesBesidesAdditions({ s: { required: ['a'] } }, { s: { required: ['a', 'b'] } })).toEqual([
      's.required: now also requires ["b"]',
    ]);
    // an answer may promise more fields
    expect(changesBesidesAdditions({ responses: { s: { required: ['a'] } } }, { responses: { s: { required: ['a', 'b'] } } })).toEqual([]);
    expect(changesBesidesAdditions({ s: { type: 'string' } }, { s: { type: 'integer' } })).toEqual(['s.type: "string" → "integer"']);
  });
});
