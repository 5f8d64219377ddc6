import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { arcoStyles } from './build/arco-styles.ts';
import { bootChunkName } from './build/boot-chunk.ts';
import { prerenderLogin } from './build/prerender-login.ts';

const api = process.env.ATRIUM_API ?? 'http://127.0.0.1:8080';
// the release this build is (the root package.json's version): the app compares it with the server's (src/app/release.ts)
const release = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export default defineConfig({
  define: { __ATRIUM_RELEASE__: JSON.stringify(release) },
  plugins: [
    arcoStyles(),
    react(),
    prerenderLogin(),
    // brotli and gzip siblings of every text asset, made once at build time; the server picks one by
    // Accept-Encoding (apps/server/src/plugins/web.ts) instead of compressing on each request
    compression({
      algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
      threshold: 1024,
      skipIfLargerOrEqual: true,
      logLevel: 'silent',
    }),
  ],
  server: {
    port: 5173,
    proxy: { '/api': api },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: Boolean(process.env.WEB_SOURCEMAP),
    // the bundle budget check (bench/src/budget.ts) reads the manifest to size each route
    manifest: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      preserveEntrySignatures: false,
      output: {
        // a shared chunk of a few KB (an icon, a hook) is copied into its users instead of being a request of its own
        codeSplitting: {
          experimentalInlineCommonChunks: { maxSize: 4 * 1024 },
          // what every visit runs first, and the sign-in route, in one file (build/boot-chunk.ts)
          groups: [
            {
              name: bootChunkName(import.meta.dirname, ['src/main.tsx', 'src/modules/auth/login/LoginPage.tsx']),
              debugName: 'boot',
            },
          ],
        },
      },
    },
  },
});
