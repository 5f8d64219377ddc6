import path from 'node:path';
import type { ChunkingContext } from 'rolldown';
import { namesImported } from './imports.ts';

/**
 * Arco's two index modules re-export the whole library and every icon. Followed as imports, they would
 * pull everything any page uses into the boot chunk; instead each import of them is followed to the
 * folders of the names it takes (`Button` → es/Button, `IconUser` → icon/react-icon/IconUser).
 */
const barrels: { index: RegExp; specifier: string; folder: (name: string) => string | null }[] = [
  {
    index: /[\\/]@arco-design[\\/]web-react[\\/]es[\\/]index\.js$/,
    specifier: '@arco-design/web-react',
    // Row and Col are Grid's; lower-case exports (hooks, helpers) are left to the automatic splitting
    folder: (name) => (/^(Row|Col)$/.test(name) ? 'es/Grid' : /^[A-Z]/.test(name) ? `es/${name}` : null),
  },
  {
    index: /[\\/]@arco-design[\\/]web-react[\\/]icon[\\/]index(\.es)?\.js$/,
    specifier: '@arco-design/web-react/icon',
    folder: (name) => (/^Icon[A-Z]/.test(name) ? `icon/react-icon/${name}` : null),
  },
];
const arcoRoot = /^(.*[\\/]@arco-design[\\/]web-react)[\\/]/;

/**
 * The name of the chunk a module goes into when the first page needs it: what the entry imports
 * statically, and what the sign-in route imports statically, in one `boot` chunk; `null` for the rest,
 * which the automatic splitting places as before (ADR 052).
 *
 * Without it, the modules every visit loads first came as 13 files and the sign-in route's as 6 more,
 * split wherever a lazy page shares a module with the entry. On a slow mobile line each file is a round
 * trip on one of six connections, and the prerendered sign-in form (ADR 041) waited for all of them
 * (module scripts in <head> hold the first paint). One file is the same code in one request; a lazy page
 * sharing a module imports it from `boot`, which is loaded already. Entries stay out: the HTML's entry
 * stays a small file of its own.
 */
export function bootChunkName(root: string, seeds: string[]) {
  const files = seeds.map((file) => path.resolve(root, file));
  let boot: Set<string> | undefined;
  const collect = (ctx: ChunkingContext) => {
    const found = new Set<string>();
    const visit = (id: string) => {
      if (found.has(id)) return;
      const info = ctx.getModuleInfo(id);
      if (!info) return;
      found.add(id);
      for (const imported of info.importedIds) {
        const barrel = barrels.find((candidate) => candidate.index.test(imported));
        if (!barrel) {
          visit(imported);
          continue;
        }
        const base = arcoRoot.exec(imported)?.[1] ?? '';
        for (const name of namesImported(info.code ?? '', barrel.specifier)) {
          const folder = barrel.folder(name);
          if (folder) visit(path.join(base, folder, 'index.js'));
        }
      }
    };
    for (const file of files) {
      if (!ctx.getModuleInfo(file)) throw new Error(`${file} is not in the build: the boot chunk starts from it`);
      visit(file);
    }
    return found;
  };
  return (id: string, ctx: ChunkingContext): string | null => {
    boot ??= collect(ctx);
    return boot.has(id) && !ctx.getModuleInfo(id)?.isEntry ? 'boot' : null;
  };
}
