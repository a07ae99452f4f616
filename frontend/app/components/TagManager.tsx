declare const __TAG_MANAGER_ID__: string;

/** The tag-manager container, when one is configured: one external script, loaded once for the whole site. */
export function TagManager() {
  if (!__TAG_MANAGER_ID__) return null;
  return <script async src="/tag-manager.js" data-container={__TAG_MANAGER_ID__} />;
}
