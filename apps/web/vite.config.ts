import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { arcoStyles } from './build/arco-styles';

const api = process.env.ATRIUM_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [arcoStyles(), react()],
  server: {
    port: 5173,
    proxy: { '/api': api },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // the bundle budget check (bench/src/budget.ts) reads the manifest to size each route
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
});
