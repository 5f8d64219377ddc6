export * from './auth';
export * from './envelope';
export * from './errors';
export * from './permissions';
export * from './resource';
export * from './routes';
export * from './system';
