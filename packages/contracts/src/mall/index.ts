export * from './goods';
export * from './permissions';
export * from './printer';
