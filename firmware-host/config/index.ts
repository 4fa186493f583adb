export * from './errors.ts';
export * from './loader.ts';
export * from './schema.ts';
