import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's folder. This file runs from `src/` (tsx, tests) or bundled into `dist/main.js`
 * (the build): both one level below it, so the migrations and the web build are found either way.
 */
export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
