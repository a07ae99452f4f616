/**
 * Node's arguments that run a server's TypeScript entry (the gateway's, a service's), with the
 * loader its Docker image uses too (see ts-loader.mjs).
 */
export function serverArgs(entry: string): string[] {
  return ['--import', new URL('./ts-loader.mjs', import.meta.url).href, entry];
}
