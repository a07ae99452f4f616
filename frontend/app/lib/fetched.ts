import { useEffect, useState } from 'react';

const answers = new Map<string, Promise<unknown>>();

/**
 * A JSON answer fetched once per visit and shared by every component that asks: `fallback` until it
 * arrives (and for good when the call fails), so prerendered pages show the fallback first.
 */
export function useFetchedOnce<T>(url: string, fallback: T, read: (body: unknown) => T): T {
  const [value, setValue] = useState(fallback);
  useEffect(() => {
    if (!answers.has(url)) {
      answers.set(
        url,
        fetch(url)
          .then((r) => (r.ok ? r.json() : undefined))
          .catch(() => undefined),
      );
    }
    let current = true;
    void answers.get(url)!.then((body) => current && body !== undefined && setValue(read(body)));
    return () => {
      current = false;
    };
    // The fallback and reader are fixed per caller; the URL names the answer.
  }, [url]);
  return value;
}
