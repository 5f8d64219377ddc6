import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';
import { namesImported } from './imports.ts';

const require = createRequire(import.meta.url);
const arcoRoot = path.dirname(require.resolve('@arco-design/web-react/package.json'));

// Sub-components exported at top level whose styles live in another component's folder.
const styleOwner: Record<string, string> = { Row: 'Grid', Col: 'Grid', Grid: 'Grid' };

/**
 * Adds the compiled CSS of each Arco component a module imports (`es/<Component>/style/css.js`, which
 * pulls in the base styles and its dependencies' styles), so a route ships only the CSS it uses
 * instead of the full 65 KB (gzip) stylesheet.
 */
export function arcoStyles(): Plugin {
  const cache = new Map<string, string | null>();
  const styleFor = (name: string): string | null => {
    const owner = styleOwner[name] ?? name;
    if (!cache.has(owner)) {
      const file = path.join(arcoRoot, 'es', owner, 'style', 'css.js');
      cache.set(owner, existsSync(file) ? `@arco-design/web-react/es/${owner}/style/css.js` : null);
    }
    return cache.get(owner) ?? null;
  };
  return {
    name: 'atrium-arco-styles',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('node_modules') || !/\.[jt]sx?$/.test(id) || !code.includes('@arco-design/web-react')) return null;
      const styles = new Set<string>();
      for (const name of namesImported(code, '@arco-design/web-react')) {
        const style = /^[A-Z]/.test(name) ? styleFor(name) : null;
        if (style) styles.add(style);
      }
      if (styles.size === 0) return null;
      return { code: `${[...styles].map((s) => `import '${s}';`).join('\n')}\n${code}`, map: null };
    },
  };
}
