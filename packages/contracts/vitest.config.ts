import { defineConfig } from 'vitest/config';

// Unit tests of the contracts' pure parts: schema building blocks, permission strings, catalogues.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
