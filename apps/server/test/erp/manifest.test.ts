import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allPermissions, erpEntities, erpPermissionCatalogue, manifestLocaleKeys, routeCatalogue } from '@atrium/contracts';
import { erpEn, erpZh } from '@atrium/contracts/erp/messages';
import { erpMenuLabels } from '@atrium/contracts/erp/pages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../helper';

// the web app's own modules, loaded by path so the server's typecheck does not follow them into JSX
const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/src');
const load = <T>(file: string): Promise<T> => import(/* @vite-ignore */ path.join(web, file)) as Promise<T>;

type Bundle = Record<string, string>;

const keysIn = (text: string) => new Set([...text.matchAll(/^\s*'([\w.]+)':/gm)].map((m) => m[1] as string));

/** Every key the web app has in one language: the shared files, the crud machinery's strings, the ERP strings and menu labels (one copy, in the contracts). */
async function webStrings(): Promise<Record<'zh-CN' | 'en-US', Set<string>>> {
  const { zhCN } = await load<{ zhCN: Bundle }>('locale/zh-CN.ts');
  const { enUS } = await load<{ enUS: Bundle }>('locale/en-US.ts');
  // the crud strings register themselves with i18next on import; read them from the source instead
  const crud = await readFile(path.join(web, 'crud/messages.ts'), 'utf8');
  const split = crud.indexOf('const en');
  return {
    'zh-CN': new Set([...Object.keys(zhCN), ...Object.keys(erpZh), ...Object.keys(erpMenuLabels.zh), ...keysIn(crud.slice(0, split))]),
    'en-US': new Set([...Object.keys(enUS), ...Object.keys(erpEn), ...Object.keys(erpMenuLabels.en), ...keysIn(crud.slice(split))]),
  };
}

describe('ERP manifests: catalogue, permissions, server routes, pages and strings agree', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    ctx = await buildTestApp('pglite');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('gives every ERP catalogue route a page', async () => {
    const { erpPages } = await load<{ erpPages: Record<string, unknown> }>('modules/erp/page-map.ts');
    const { mallPages } = await load<{ mallPages: Record<string, unknown> }>('modules/mall/page-map.ts');
    const erp = routeCatalogue.find((r) => r.name === 'erp');
    // the printer page sits in the ERP menu and lives with the mall's pages
    expect(Object.keys(mallPages)).toContain('mallPrinter');
    const names = (erp?.children ?? []).map((r) => r.name).filter((n) => !(n in mallPages));
    expect(names.length).toBeGreaterThanOrEqual(10);
    expect(names.filter((n) => !(n in erpPages))).toEqual([]);
    // and no page without a route
    expect(Object.keys(erpPages).filter((n) => !names.includes(n))).toEqual([]);
  });

  it('renders each ERP list without a page of its own from a manifest with fields', async () => {
    const { erpPages } = await load<{ erpPages: Record<string, () => Promise<unknown>> }>('modules/erp/page-map.ts');
    const generic = erpEntities.filter((m) => m.fields).map((m) => m.route.name);
    expect(generic).toEqual(expect.arrayContaining(['erpWarehouses', 'erpSpecs', 'productCategories', 'erpSupplier', 'systemUserMember']));
    const own = await readFile(path.join(web, 'modules/erp/page-map.ts'), 'utf8');
    for (const m of erpEntities) {
      // a list route is either written as a page of its own or served by the generic page from its fields
      expect({ route: m.route.name, served: own.includes(`${m.route.name}:`) || Boolean(m.fields) }).toEqual({
        route: m.route.name,
        served: true,
      });
      expect(m.route.name in erpPages).toBe(true);
    }
  });

  it('declares every ERP permission on a server route, and every ERP route permission in the catalogue', () => {
    const declared = new Set(ctx.app.routeRegistry.map((r) => r.config.permission).filter((p): p is string => typeof p === 'string'));
    const catalogue = Object.entries(erpPermissionCatalogue).flatMap(([prefix, actions]) => actions.map((a) => `${prefix}:${a}`));
    expect(catalogue.filter((p) => !declared.has(p))).toEqual([]);
    const erpDeclared = [...declared].filter((p) => p.startsWith('erp:'));
    expect(erpDeclared.filter((p) => !(allPermissions as string[]).includes(p))).toEqual([]);
    // the menu routes name permissions that exist
    const erp = routeCatalogue.find((r) => r.name === 'erp');
    const routePermissions = (erp?.children ?? []).flatMap((r) => (r.permission ? [r.permission] : []));
    expect(routePermissions.filter((p) => !(allPermissions as string[]).includes(p))).toEqual([]);
  });

  it('has every string a manifest names in both languages', async () => {
    const strings = await webStrings();
    const keys = erpEntities.flatMap(manifestLocaleKeys);
    expect(keys.length).toBeGreaterThan(50);
    for (const lang of ['zh-CN', 'en-US'] as const) {
      expect({ lang, missing: keys.filter((k) => !strings[lang].has(k)) }).toEqual({ lang, missing: [] });
    }
  });
});
