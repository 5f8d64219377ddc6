import { categoryEntity } from '@atrium/contracts/erp/category';
import { memberEntity } from '@atrium/contracts/erp/member';
import { specEntity } from '@atrium/contracts/erp/spec';
import { supplierEntity } from '@atrium/contracts/erp/supplier';
import { warehouseEntity } from '@atrium/contracts/erp/warehouse';
import { entityPage } from './shared/EntityPage';

// the simple entities: their manifests are the whole page
export const WarehousePage = entityPage(warehouseEntity);
export const SpecPage = entityPage(specEntity);
export const CategoryPage = entityPage(categoryEntity);
export const SupplierPage = entityPage(supplierEntity);
export const MemberPage = entityPage(memberEntity);
