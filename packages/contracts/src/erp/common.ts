import { z } from 'zod';
import { statusSchema } from '../auth';
import { defineEntity } from '../entity';
import { resourcesIn } from '../resource';
import { type ErpPageName, erpDetail, erpRoute } from './pages';

export { closingFields, createTimeField, statusField } from '../entity';
export { idFilter, textFilter } from '../resource';
export { auditFields, codeSchema, optionalEmail, optionalPhone, optionalText } from '../system/common';

/** Money: integer fen (minor units) in the API and the database; never a float. */
export const moneySchema = z.number().int().min(0).max(100_000_000_000);
/** A row id sent in a body. */
export const refId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const sortSchemaField = z.number().int().min(0).max(9999);
export const nameSchema = (max = 50) => z.string().trim().min(1).max(max);

export const erpStatus = { status: statusSchema };

type EntityConfig = Parameters<typeof defineEntity>[0];

/**
 * A simple ERP entity (`defineEntity` in the `erp` domain): its page and menu entry come from `erpPages`
 * by its name, the rest of what it does not write from the conventions.
 */
export function erpEntity<C extends Omit<EntityConfig, 'domain' | 'route' | 'detail'> & { name: ErpPageName }>(config: C) {
  const detail = erpDetail(config.name);
  return defineEntity({ ...config, domain: 'erp', route: erpRoute(config.name), ...(detail ? { detail } : {}) });
}

/** `defineResource` in the `erp` domain. */
export const erpResource = resourcesIn('erp');
