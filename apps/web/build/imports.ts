/**
 * The value names a module imports from `specifier` (`import { A, B as C } from '…'` gives A and B);
 * `import type` and `type` names are left out. Read from the module's source text, as the build's own
 * plugins see it.
 */
export function namesImported(code: string, specifier: string): string[] {
  const names: string[] = [];
  const pattern = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*['"]${specifier.replace(/[/.]/g, '\\$&')}['"]`, 'g');
  for (const match of code.matchAll(pattern)) {
    for (const raw of (match[1] ?? '').split(',')) {
      const spec = raw.trim();
      if (spec && !spec.startsWith('type ')) names.push(spec.split(/\s+as\s+/)[0]?.trim() ?? '');
    }
  }
  return names.filter(Boolean);
}
