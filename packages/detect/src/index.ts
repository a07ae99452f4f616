export * from './damaged-pdf.ts';
export * from './file-start.ts';
export * from './office-detect.ts';
export * from './sniff.ts';
export * from './text.ts';
export * from './upload-kind.ts';
export * from './zip-entries.ts';
export * from './zip-open.ts';
