/**
 * A PDF's form fields as the form filler shows them, read from pdf.js's field objects (one per widget,
 * grouped by the field's full name), and the values JSON that fill-pdf-form takes.
 */

/** One field to fill: its full name, its kind and what it may hold, and what it holds now. */
export type FormField =
  | { kind: 'text'; name: string; page: number; value: string; multiline: boolean; maxLength?: number; format?: string }
  | { kind: 'checkbox'; name: string; page: number; checked: boolean }
  | { kind: 'radio'; name: string; page: number; options: string[]; value: string }
  | { kind: 'choice'; name: string; page: number; options: Option[]; value: string[]; several: boolean };

export interface Option {
  value: string;
  label: string;
}

/** A widget as pdf.js's getFieldObjects gives it (only what is read here). */
interface FieldObject {
  name?: string;
  type?: string;
  value?: unknown;
  editable?: boolean;
  hidden?: boolean;
  page?: number;
  multiline?: boolean;
  charLimit?: number;
  datetimeFormat?: string;
  exportValues?: unknown;
  multipleSelection?: boolean;
  items?: { exportValue?: unknown; displayValue?: unknown }[];
}

const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));

/**
 * The fields a visitor may fill, in the document's order: text (dates among them, with their format),
 * check boxes, radio groups and choices. Buttons, signatures, read-only and hidden fields are left out.
 */
export function formFields(objects: Record<string, FieldObject[]> | null): FormField[] {
  const fields: FormField[] = [];
  for (const [name, widgets] of Object.entries(objects ?? {})) {
    const first = widgets.find((w) => w.type && w.type !== 'button' && w.type !== 'signature');
    if (!first || first.editable === false || widgets.every((w) => w.hidden)) continue;
    const page = (first.page ?? 0) + 1;
    switch (first.type) {
      case 'text':
        fields.push({
          kind: 'text',
          name,
          page,
          value: text(first.value),
          multiline: Boolean(first.multiline),
          ...(first.charLimit ? { maxLength: first.charLimit } : {}),
          ...(first.datetimeFormat ? { format: first.datetimeFormat } : {}),
        });
        break;
      case 'checkbox':
        fields.push({ kind: 'checkbox', name, page, checked: text(first.value) !== 'Off' && first.value !== '' });
        break;
      case 'radiobutton': {
        const options = [...new Set(widgets.map((w) => text(w.exportValues)).filter(Boolean))];
        const value = text(widgets.find((w) => text(w.value) !== 'Off')?.value);
        fields.push({ kind: 'radio', name, page, options, value: options.includes(value) ? value : '' });
        break;
      }
      case 'combobox':
      case 'listbox': {
        const options = (first.items ?? []).map((i) => ({ value: text(i.exportValue), label: text(i.displayValue) }));
        const value = Array.isArray(first.value) ? first.value.map(text) : first.value ? [text(first.value)] : [];
        fields.push({ kind: 'choice', name, page, options, value, several: Boolean(first.multipleSelection) });
        break;
      }
    }
  }
  return fields;
}

/** A field's value as fill-pdf-form takes it. */
export type FieldValue = string | boolean | string[];

/** The values JSON, parsed; anything else (a value typed by hand that is not JSON) counts as none. */
export function parseValues(json: string): Record<string, FieldValue> {
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, FieldValue>)
      : {};
  } catch {
    return {};
  }
}

/** The values JSON with one field set: only the fields the visitor changed are sent, the rest keep theirs. */
export function withValue(json: string, name: string, value: FieldValue): string {
  return JSON.stringify({ ...parseValues(json), [name]: value });
}
