import type { ComponentType } from 'react';
import { ChunkLoadError } from '../components/ChunkLoadError';
import { checkRelease } from '../services/release';

export const CHUNK_ERROR_EVENT = 'atrium:chunk-error';

/** Loads a route's component; a failed download becomes the retry state instead of a white screen. */
export async function safeComponent(load: () => Promise<ComponentType>): Promise<{ Component: ComponentType }> {
  try {
    return { Component: await load() };
  } catch (error) {
    window.dispatchEvent(new CustomEvent(CHUNK_ERROR_EVENT, { detail: error }));
    // the usual cause after an upgrade: this tab's chunks are gone from the server; that leads to the reload notice
    void checkRelease('chunk');
    return { Component: ChunkLoadError };
  }
}
