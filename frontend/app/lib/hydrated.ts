import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False while prerendering and hydrating, true from the render after: what depends on the address's query
 * (which the prerendered HTML never saw) waits for it, so hydration matches the HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
