export * from './service.ts';
export * from './tool-folders.ts';
