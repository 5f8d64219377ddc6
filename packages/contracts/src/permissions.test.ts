import { describe, expect, it } from 'vitest';
import { manifestPermissions } from './entity';
import { erpEntities, erpPermissionCatalogue } from './erp/manifest';
import { ALL_PERMISSIONS, allPermissions, hasPermission, isPlatformPermission, permissionCatalogue, platformEntities } from './permissions';
import { releaseEntities } from './release-entities';
import { type CatalogueRoute, routeCatalogue } from './routes';
import { systemEntities } from './system/entities';

describe('permission strings', () => {
  it('are domain:entity:action, each once', () => {
    for (const permission of allPermissions) expect(permission).toMatch(/^[a-z]+:[A-Za-z]+:[A-Za-z]+$/);
    expect(new Set(allPermissions).size).toBe(allPermissions.length);
  });

  it('cover the system, ERP and mall catalogues', () => {
    expect(allPermissions).toContain('system:user:resetPwd');
    expect(allPermissions).toContain(`${Object.keys(erpPermissionCatalogue)[0]}:list`);
    expect(allPermissions).toContain('mall:goods:list');
  });

  // the catalogue's line of an entity on the manifests is what its manifest says, no more and no less
  it("of every manifest are its catalogue line's", () => {
    const lines = { ...permissionCatalogue, ...erpPermissionCatalogue } as Record<string, readonly string[]>;
    const differ = [...systemEntities, ...erpEntities, ...releaseEntities].flatMap((m) => {
      const prefix = `${m.resource.domain}:${m.resource.name}`;
      const line = (lines[prefix] ?? []).map((action) => `${prefix}:${action}`).sort();
      const own = manifestPermissions(m).sort();
      return JSON.stringify(line) === JSON.stringify(own) ? [] : [`${prefix}: catalogue ${line.join(' ')} ≠ manifest ${own.join(' ')}`];
    });
    expect(differ).toEqual([]);
  });

  it('include the permission of every route of the menu catalogue', () => {
    const walk = (routes: CatalogueRoute[]): string[] =>
      routes.flatMap((r) => [...(r.permission ? [r.permission] : []), ...walk(r.children ?? [])]);
    const missing = walk(routeCatalogue).filter((p) => !(allPermissions as string[]).includes(p));
    expect(missing).toEqual([]);
  });
});

describe('hasPermission', () => {
  it('grants exactly the listed permissions, from an array or a set', () => {
    expect(hasPermission(['system:user:list'], 'system:user:list')).toBe(true);
    expect(hasPermission(new Set(['system:user:list']), 'system:user:list')).toBe(true);
    expect(hasPermission(['system:user:list'], 'system:user:delete')).toBe(false);
    expect(hasPermission(new Set(['system:user:list']), 'system:user:delete')).toBe(false);
    expect(hasPermission([], 'system:user:list')).toBe(false);
  });

  it('matches whole strings: no prefixes, no wildcards other than the super admin one', () => {
    expect(hasPermission(['system:user'], 'system:user:list')).toBe(false);
    expect(hasPermission(['system:user:*'], 'system:user:list')).toBe(false);
    expect(hasPermission(['system:user:list'], 'system:user')).toBe(false);
  });

  it("grants everything to '*:*:*'", () => {
    expect(hasPermission([ALL_PERMISSIONS], 'system:tenant:delete')).toBe(true);
    expect(hasPermission(new Set([ALL_PERMISSIONS]), 'anything:at:all')).toBe(true);
  });
});

describe('platform permissions', () => {
  it("name the platform entities' permissions, and no others", () => {
    expect(platformEntities).toEqual(['system:tenant', 'system:certification']);
    for (const action of permissionCatalogue['system:tenant']) expect(isPlatformPermission(`system:tenant:${action}`)).toBe(true);
    expect(isPlatformPermission('system:tenantUser:list')).toBe(false);
    expect(isPlatformPermission('system:user:list')).toBe(false);
    expect(isPlatformPermission('system:tenant')).toBe(false);
    expect(isPlatformPermission(null)).toBe(false);
    expect(isPlatformPermission(undefined)).toBe(false);
    expect(isPlatformPermission('')).toBe(false);
  });
});
