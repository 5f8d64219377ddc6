export { Can, MenuNamePermission, RolePermission, useCan, useMenuName, useRoles } from './permission';
