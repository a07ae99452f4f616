export * from './archival.ts';
export * from './drawn-images.ts';
export * from './page-count.ts';
export * from './page-reads.ts';
export * from './qpdf.ts';
export * from './similarity.ts';
export * from './verify.ts';
export * from './zip.ts';
