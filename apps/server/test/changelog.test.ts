import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from '../src/db/client';
import { release } from '../src/release';

// Releases people can follow (docs/operations.md, "Upgrading"): reads files only, no database
describe('CHANGELOG.md', () => {
  const root = path.resolve(migrationsFolder, '../../..');
  const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');

  it('has an entry for the release in package.json', () => {
    expect(release).toMatch(/^\d+\.\d+\.\d+$/);
    expect(changelog).toMatch(new RegExp(`^## ${release.replaceAll('.', '\\.')} — `, 'm'));
  });

  it('names every migration shipped since the first release, so an operator knows what an upgrade applies', () => {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    // 0000-0004 are 0.1.0's, the first release
    const unlisted = journal.entries
      .slice(5)
      .map((e) => e.tag)
      .filter((tag) => !changelog.includes(`${tag.slice(0, 4)} \`${tag.slice(5)}\``));
    expect(unlisted, 'list each new migration in its release\'s "Migrations" as 00NN `name`').toEqual([]);
  });
});
