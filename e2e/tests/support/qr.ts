import type { Locator } from '@playwright/test';
import jsQR from 'jsqr';

/** What a canvas shows, read back and decoded by an independent decoder. */
export async function decode(canvas: Locator): Promise<string | undefined> {
  const image = await canvas.evaluate((node) => {
    const c = node as HTMLCanvasElement;
    const data = c.getContext('2d')?.getImageData(0, 0, c.width, c.height);
    return data ? { width: data.width, height: data.height, pixels: Array.from(data.data) } : null;
  });
  if (!image) return undefined;
  return jsQR(Uint8ClampedArray.from(image.pixels), image.width, image.height)?.data;
}
