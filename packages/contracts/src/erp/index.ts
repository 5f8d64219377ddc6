export * from './entities';
export * from './manifest';
