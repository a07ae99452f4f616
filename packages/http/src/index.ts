export * from './error-handler.ts';
export * from './properties.ts';
export * from './queue.ts';
export * from './upload.ts';
export * from './url.ts';
export * from './workdir.ts';
export * from './verdict.ts';
