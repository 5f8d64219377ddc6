import { describe, expect, it } from 'vitest';
import { releaseEntities } from './release-entities';
import { releaseEn, releaseZh } from './release-messages';
import { bilingual } from './strings';

describe('release manifests', () => {
  it('have words in both languages for every field, empty value and entity they name', () => {
    const keys = releaseEntities.flatMap((m) =>
      m.fields?.length ? [`${m.resource.i18n}.entity`, ...m.fields.flatMap((f) => [f.label, ...(f.empty ? [f.empty] : [])])] : [],
    );
    const missing = keys.filter((key) => Object.values(bilingual(key)).includes(key));
    expect(missing).toEqual([]);
  });

  it('write each string once, in both languages', () => {
    expect(Object.keys(releaseEn).sort()).toEqual(Object.keys(releaseZh).sort());
  });
});
