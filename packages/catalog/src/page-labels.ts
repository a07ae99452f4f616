/** How add-page-numbers writes page numbers: shared by the tool and the page view that previews them. */

/** add-page-numbers' `format` option. */
export type NumberFormat = 'number' | 'page-of-total' | 'roman-lower' | 'roman-upper';

const romanDigits: [number, string][] = [
  [1000, 'M'],
  [900, 'CM'],
  [500, 'D'],
  [400, 'CD'],
  [100, 'C'],
  [90, 'XC'],
  [50, 'L'],
  [40, 'XL'],
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
];

/** n (1 to 3999) in Roman numerals, upper case. */
export function roman(n: number): string {
  let out = '';
  for (const [value, digits] of romanDigits) for (; n >= value; n -= value) out += digits;
  return out;
}

/** The label of page number n, `total` being the last number given. */
export function pageLabel(format: NumberFormat, n: number, total: number): string {
  switch (format) {
    case 'number':
      return String(n);
    case 'page-of-total':
      return `Page ${n} of ${total}`;
    case 'roman-lower':
      return roman(n).toLowerCase();
    case 'roman-upper':
      return roman(n);
  }
}
