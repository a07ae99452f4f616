export { createApp, health, loaded, tools } from './app.ts';
export { analyzeDocument } from './layout/analyze.ts';
export type { DocLayout, PageLayout, Table, Para, Figure, Block } from './layout/types.ts';
