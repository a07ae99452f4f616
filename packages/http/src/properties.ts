/**
 * The most characters X-Quire-Properties carries: well under the header limits of nginx (8 KB a
 * line by default) and Node (16 KB for all headers), with room left for the others.
 */
export const propertiesHeaderMax = 4096;

/** Kept whatever the size: what the result is and what was checked before it was offered. */
const essential = ['bytes', 'pages', 'checks'];

/** JSON in printable ASCII only: a header is bytes, and Node refuses characters past Latin-1 and DEL. */
function encode(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A result's properties as the X-Quire-Properties header, at most `max` characters and always valid
 * JSON. When they are larger (a tool listing something per page), the bulkiest fields other than the
 * essential ones are dropped first, largest first, and named in `truncated`; when even that does not
 * fit, the essential fields stay alone with `truncated: true`, or failing that the marker alone.
 */
export function propertiesHeader(properties: Record<string, unknown>, max = propertiesHeaderMax): string {
  const full = encode(properties);
  if (full.length <= max) return full;
  const bulky = Object.keys(properties)
    .filter((k) => !essential.includes(k))
    .map((k) => ({ k, size: encode(properties[k]).length }))
    .sort((a, b) => b.size - a.size || a.k.localeCompare(b.k));
  const kept = { ...properties };
  const truncated: string[] = [];
  for (const { k } of bulky) {
    delete kept[k];
    truncated.push(k);
    const header = encode({ ...kept, truncated });
    if (header.length <= max) return header;
  }
  const header = encode({
    ...Object.fromEntries(essential.filter((k) => k in properties).map((k) => [k, properties[k]])),
    truncated: true,
  });
  return header.length <= max ? header : encode({ truncated: true });
}
