/**
 * A result carried from one tool into the next ("What can I do next?") without a new upload: the next
 * tool page takes it once, when it opens.
 */
let pending: { url: string; name: string } | undefined;

export function handOff(url: string, name: string): void {
  pending = { url, name };
}

export async function takeHandoff(): Promise<File | undefined> {
  const carried = pending;
  pending = undefined;
  if (!carried) return undefined;
  try {
    const res = await fetch(carried.url);
    if (!res.ok) return undefined;
    const blob = await res.blob();
    return new File([blob], carried.name, { type: blob.type });
  } catch {
    return undefined;
  }
}
