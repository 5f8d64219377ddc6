export * from './audit';
export * from './common';
export * from './dept';
export * from './menu';
export * from './post';
export * from './role';
export * from './tenant';
export * from './user';
