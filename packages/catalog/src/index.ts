export * from './checks.ts';
export * from './kinds.ts';
export * from './errors.ts';
export * from './ranges.ts';
export * from './options.ts';
export * from './tools.ts';
export * from './validate.ts';
export * from './site.ts';
