// The ERP domain's contracts; each entity's manifest among them is found by `manifest.ts`
export * from './activity';
export * from './category';
export * from './member';
export * from './product';
export * from './sale';
export * from './spec';
export * from './stock';
export * from './supplier';
export * from './warehouse';
