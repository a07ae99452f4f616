import {
  PDFBool,
  PDFButton,
  PDFCheckBox,
  PDFDropdown,
  PDFName,
  PDFOptionList,
  PDFRadioGroup,
  PDFSignature,
  PDFTextField,
  type PDFField,
  type PDFForm,
} from '@cantoo/pdf-lib';
import type { FormValue } from '@quire/catalog';
import { fail } from '@quire/base';

/** A value the form cannot take: an `invalid_option` naming the field. */
function refuse(name: string, why: string): never {
  fail('invalid_option', `The option "values" is not valid: field "${name}" ${why}.`);
}

/** The characters the fields' fonts draw (Windows-1252: Latin letters, digits, punctuation). */
const drawable = /^[\u0020-\u007e\u00a0-\u00ff\n\r\t€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]*$/u;

/** The names of a check box's or a radio group's "on" states, as its widgets hold them. */
function onStates(field: PDFCheckBox | PDFRadioGroup): string[] {
  return field.acroField.getWidgets().flatMap((w) => {
    const on = w.getOnValue();
    return on ? [on.decodeText()] : [];
  });
}

const quoted = (items: readonly string[]) =>
  items.length > 12
    ? `${items
        .slice(0, 12)
        .map((i) => `"${i}"`)
        .join(', ')}…`
    : items.map((i) => `"${i}"`).join(', ');

/**
 * Puts each value in its field, after checking that the field exists, may be changed, and takes such a
 * value: text for a text field, a state for a check box, one of its options for a radio group or a
 * choice. Any mismatch is refused, naming the field, before anything is changed. The fields' looks are
 * drawn afterwards (drawForm), so that the whole form is drawn one way.
 */
export function fillForm(form: PDFForm, values: Record<string, FormValue>): void {
  const fields = new Map(form.getFields().map((f) => [f.getName(), f]));
  const changes = Object.entries(values).map(([name, value]) => {
    const field = fields.get(name);
    if (!field) {
      const names = [...fields.keys()];
      refuse(
        name,
        names.length
          ? `is not in this form; its fields are ${quoted(names)}`
          : 'is not there: this PDF has no form fields',
      );
    }
    if (field.isReadOnly()) refuse(name, 'is read-only');
    return fillField(name, field, value);
  });
  for (const change of changes) change();
  form.acroForm.dict.set(PDFName.of('NeedAppearances'), PDFBool.True);
}

/** The change a value makes to its field, once every value has been checked. */
function fillField(name: string, field: PDFField, value: FormValue): () => void {
  if (field instanceof PDFTextField) {
    if (typeof value !== 'string' && typeof value !== 'number') refuse(name, 'is a text field: give it text');
    const text = String(value);
    const max = field.getMaxLength();
    if (max !== undefined && text.length > max) refuse(name, `takes at most ${max} characters`);
    if (!drawable.test(text)) refuse(name, "holds characters the form's fonts cannot show (Latin letters only)");
    if (!field.isMultiline() && /[\r\n]/.test(text)) refuse(name, 'takes one line of text');
    return () => field.setText(text);
  }
  if (field instanceof PDFCheckBox) {
    const states = onStates(field);
    if (value === true || value === 'true') return () => field.check();
    if (value === false || value === 'false' || value === 'Off' || value === '') return () => field.uncheck();
    if (typeof value === 'string' && states.includes(value)) return () => field.acroField.setValue(PDFName.of(value));
    refuse(name, `is a check box: give it true, false${states.length ? ` or ${quoted([...new Set(states)])}` : ''}`);
  }
  if (field instanceof PDFRadioGroup) {
    const options = field.getOptions();
    const states = onStates(field);
    if (value === false || value === '' || value === 'Off') return () => field.clear();
    if (typeof value === 'string' && options.includes(value)) return () => field.select(value);
    if (typeof value === 'string' && states.includes(value)) return () => field.acroField.setValue(PDFName.of(value));
    refuse(name, `is a radio group: give it one of ${quoted([...new Set([...options, ...states])])}`);
  }
  if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
    const given = typeof value === 'string' ? (value === '' ? [] : [value]) : Array.isArray(value) ? value : undefined;
    if (!given) refuse(name, 'is a choice: give it one of its options');
    const options = field.getOptions();
    // An option may have an export value apart from the text shown: either names it.
    const shown = new Map(
      field.acroField.getOptions().map((o) => [o.value.decodeText(), (o.display ?? o.value).decodeText()]),
    );
    const chosen = given.map((c) => (options.includes(c) ? c : (shown.get(c) ?? c)));
    const several = field instanceof PDFDropdown ? false : field.isMultiselect();
    if (chosen.length > 1 && !several) refuse(name, 'takes one option only');
    const editable = field instanceof PDFDropdown && field.isEditable();
    const unknown = chosen.find((c) => !options.includes(c));
    if (unknown !== undefined && !editable)
      refuse(name, `has no option "${unknown}"; its options are ${quoted(options)}`);
    if (unknown !== undefined && !drawable.test(unknown))
      refuse(name, "holds characters the form's fonts cannot show (Latin letters only)");
    return () => (chosen.length ? field.select(chosen) : field.clear());
  }
  if (field instanceof PDFButton) refuse(name, 'is a button: it takes no value');
  if (field instanceof PDFSignature) refuse(name, 'is a signature field: it takes no value');
  refuse(name, 'is of a kind this tool cannot fill');
}

/**
 * Whether each field holds the value given, read back from the written file: the check that the form
 * was filled as asked. Returns the first field that does not, or undefined.
 */
export function misfilled(form: PDFForm, values: Record<string, FormValue>): string | undefined {
  const fields = new Map(form.getFields().map((f) => [f.getName(), f]));
  return Object.entries(values).find(([name, value]) => {
    const field = fields.get(name);
    if (field instanceof PDFTextField) return (field.getText() ?? '') !== String(value);
    if (field instanceof PDFCheckBox) {
      const on = !(value === false || value === 'false' || value === 'Off' || value === '');
      return field.isChecked() !== on;
    }
    if (field instanceof PDFRadioGroup) {
      const selected = field.acroField.getValue().decodeText();
      const picked = field.getSelected();
      return value === false || value === '' || value === 'Off'
        ? picked !== undefined && selected !== 'Off'
        : picked !== value && selected !== value;
    }
    if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
      const want = typeof value === 'string' ? (value === '' ? [] : [value]) : (value as string[]);
      return JSON.stringify(field.getSelected()) !== JSON.stringify(want);
    }
    return true;
  })?.[0];
}
