declare module 'virtual:quire/tools' {
  import type { SiteTool } from '@quire/catalog';
  export const tools: SiteTool[];
}

declare module 'virtual:quire/file-kinds' {
  import type { FileKind } from '@quire/catalog/kinds';
  export const fileKinds: Record<FileKind, { mime: string; ext: string; label: string }>;
}

declare module 'virtual:quire/error-messages' {
  import type { ErrorCode } from '@quire/catalog/errors';
  export const errorMessages: Record<ErrorCode, string>;
}
