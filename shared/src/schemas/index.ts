export * from './auth.schema.ts';
export * from './profile.schema.ts';
export * from './availability.schema.ts';
export * from './calendar.schema.ts';
export * from './proposal.schema.ts';
export * from './block.schema.ts';
export * from './share-link.schema.ts';
export * from './storable-text.ts';
