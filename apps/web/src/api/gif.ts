/**
 * Spec §7's helper: fetches a GIF by GET on a given URL and answers it as a Blob (an object URL can then
 * show it without the page loading the address itself, and a failed or non-GIF answer is an error the
 * caller handles, not a broken image). Sends no credentials to another origin.
 */
export class GifFetchError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'GifFetchError';
  }
}

/** GIF files start with `GIF87a` or `GIF89a`: a server's content type alone is not trusted. */
const isGif = (head: Uint8Array) => head.length >= 6 && String.fromCharCode(...head.subarray(0, 6)).match(/^GIF8[79]a$/) !== null;

export async function fetchGif(url: string, options: { signal?: AbortSignal } = {}): Promise<Blob> {
  const response = await fetch(url, {
    method: 'GET',
    headers: { accept: 'image/gif' },
    credentials: 'same-origin',
    signal: options.signal,
  });
  if (!response.ok) throw new GifFetchError(`GET ${url}: HTTP ${response.status}`, response.status);
  const blob = await response.blob();
  if (!isGif(new Uint8Array(await blob.slice(0, 6).arrayBuffer()))) throw new GifFetchError(`GET ${url}: not a GIF`, response.status);
  return blob.type === 'image/gif' ? blob : new Blob([blob], { type: 'image/gif' });
}
