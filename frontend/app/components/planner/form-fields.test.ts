import { describe, expect, it } from 'vitest';
import { formFields, parseValues, withValue } from './form-fields.ts';

describe('form fields', () => {
  it("reads pdf.js's field objects as fields to fill, leaving out buttons, signatures and read-only fields", () => {
    const fields = formFields({
      Name: [{ type: 'text', value: 'Ada', page: 0, multiline: false, charLimit: 20, editable: true }],
      Born: [{ type: 'text', value: '', page: 1, datetimeFormat: 'mm/dd/yyyy', editable: true }],
      Agree: [{ type: 'checkbox', value: 'Yes', exportValues: 'Yes', page: 0, editable: true }],
      Gender: [
        { type: 'radiobutton', value: 'Off', exportValues: 'F', page: 0, editable: true },
        { type: 'radiobutton', value: 'M', exportValues: 'M', page: 0, editable: true },
      ],
      Country: [
        {
          type: 'combobox',
          value: 'mt',
          items: [
            { exportValue: 'at', displayValue: 'Austria' },
            { exportValue: 'mt', displayValue: 'Malta' },
          ],
          page: 0,
          editable: true,
        },
      ],
      Submit: [{ type: 'button', page: 0, editable: true }],
      Sign: [{ type: 'signature', page: 0 }],
      Locked: [{ type: 'text', value: 'x', page: 0, editable: false }],
    });
    expect(fields).toEqual([
      { kind: 'text', name: 'Name', page: 1, value: 'Ada', multiline: false, maxLength: 20 },
      { kind: 'text', name: 'Born', page: 2, value: '', multiline: false, format: 'mm/dd/yyyy' },
      { kind: 'checkbox', name: 'Agree', page: 1, checked: true },
      { kind: 'radio', name: 'Gender', page: 1, options: ['F', 'M'], value: 'M' },
      {
        kind: 'choice',
        name: 'Country',
        page: 1,
        options: [
          { value: 'at', label: 'Austria' },
          { value: 'mt', label: 'Malta' },
        ],
        value: ['mt'],
        several: false,
      },
    ]);
    expect(formFields(null)).toEqual([]);
  });

  it('writes only the fields changed, and reads what was typed by hand', () => {
    const json = withValue(withValue('', 'Name', 'Ada'), 'Agree', true);
    expect(parseValues(json)).toEqual({ Name: 'Ada', Agree: true });
    expect(parseValues(withValue(json, 'Name', 'Bea'))).toEqual({ Name: 'Bea', Agree: true });
    expect(parseValues('not json')).toEqual({});
    expect(parseValues('[1]')).toEqual({});
  });
});
