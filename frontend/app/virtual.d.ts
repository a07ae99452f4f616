declare module 'virtual:quire/tools' {
  import type { SiteTool } from '@quire/catalog';
  export const tools: SiteTool[];
}
