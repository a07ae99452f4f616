const units = ['B', 'KB', 'MB', 'GB'] as const;

/**
 * A file size in the unit that fits (1 KB = 1024 bytes): whole bytes, else one decimal under 10 and none
 * above ("512 B", "1.5 KB", "23 MB"), with the language's digits and decimal sign.
 */
export function formatSize(bytes: number, language = 'en'): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  // Rounding may reach the next unit: 1023.96 KB reads "1 MB", not "1024 KB".
  if (Number(value.toFixed(digits)) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: unit === 0 || value >= 10 ? 0 : 1 });
  return `${number.format(value)} ${units[unit]}`;
}
