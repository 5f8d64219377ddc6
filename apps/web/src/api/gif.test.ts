import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchGif, GifFetchError } from './gif';

// the smallest GIF: one transparent pixel
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

describe('fetchGif', () => {
  let server: Server;
  let base: string;
  const seen: { method?: string; accept?: string }[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ method: request.method, accept: request.headers.accept });
      if (request.url === '/pixel.gif') response.writeHead(200, { 'content-type': 'image/gif' }).end(PIXEL);
      else if (request.url === '/untyped') response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(PIXEL);
      else if (request.url === '/page') response.writeHead(200, { 'content-type': 'image/gif' }).end('<!doctype html><p>sign in</p>');
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers the GIF at a URL as a blob of type image/gif, by GET', async () => {
    const blob = await fetchGif(`${base}/pixel.gif`);
    expect(blob.type).toBe('image/gif');
    expect(Buffer.from(await blob.arrayBuffer())).toEqual(PIXEL);
    expect(seen.at(-1)).toEqual({ method: 'GET', accept: 'image/gif' });
    // a GIF served under another type is still one
    expect((await fetchGif(`${base}/untyped`)).type).toBe('image/gif');
  });

  it('fails on an error status, and on an answer that is not a GIF whatever its type says', async () => {
    await expect(fetchGif(`${base}/missing.gif`)).rejects.toMatchObject({ name: 'GifFetchError', status: 404 });
    await expect(fetchGif(`${base}/page`)).rejects.toBeInstanceOf(GifFetchError);
  });
});
