/** Browser-safe entry of @avail/shared: constants and zod contracts. Engine: `@avail/shared/domain/*`. */
export * from './constants.ts';
export * from './schemas/index.ts';
