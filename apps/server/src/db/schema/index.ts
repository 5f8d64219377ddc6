export * from './erp';
export * from './forms';
export * from './identity';
export * from './state';
export * from './system';
export * from './tenancy';
