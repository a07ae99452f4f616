export { createApp, type OfficeApp } from './app.ts';
export { detectOfficeFormat, officeKindFor, type OfficeFormat } from '@quire/detect';
export { toolFamilies } from './to-pdf.ts';
