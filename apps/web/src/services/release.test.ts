import { afterEach, describe, expect, it } from 'vitest';
import { hasUnsavedInput, holdUnsavedInput, isOtherRelease, noteServerRelease, useRelease } from './release';

describe('release of the tab and of the server', () => {
  afterEach(() => useRelease.setState({ serverRelease: undefined, cause: undefined, dismissed: false }));

  it('tells another release from its own, and says nothing without a header', () => {
    expect(isOtherRelease('0.2.0', '0.2.0')).toBe(false);
    expect(isOtherRelease(' v0.2.0', '0.2.0')).toBe(false);
    expect(isOtherRelease('0.3.0', '0.2.0')).toBe(true);
    // a rollback is another release too
    expect(isOtherRelease('0.1.0', '0.2.0')).toBe(true);
    expect(isOtherRelease(null, '0.2.0')).toBe(false);
    expect(isOtherRelease(undefined, '0.2.0')).toBe(false);
    expect(isOtherRelease('', '0.2.0')).toBe(false);
  });

  it('opens the notice once a server names another release, and again after Later when a new sign comes', () => {
    noteServerRelease('dev');
    expect(useRelease.getState().serverRelease).toBeUndefined();
    noteServerRelease('9.9.9', 'chunk');
    expect(useRelease.getState()).toMatchObject({ serverRelease: '9.9.9', cause: 'chunk', dismissed: false });
    useRelease.setState({ dismissed: true });
    noteServerRelease('9.9.9', 'realtime');
    expect(useRelease.getState()).toMatchObject({ serverRelease: '9.9.9', cause: 'realtime', dismissed: false });
  });

  it('knows whether an open form holds unsaved input', () => {
    let dirty = false;
    const release = holdUnsavedInput(() => dirty);
    expect(hasUnsavedInput()).toBe(false);
    dirty = true;
    expect(hasUnsavedInput()).toBe(true);
    release();
    expect(hasUnsavedInput()).toBe(false);
  });
});
