import { useEffect, useId, useState } from 'react';
import { useT } from '../../i18n/use-t.ts';
import { parseValues, withValue, type FieldValue, type FormField } from './form-fields.ts';
import type { FieldsView } from './pdf-pages.ts';

/**
 * The PDF's form fields as a form of the page's own controls (text, check boxes, radio groups, lists),
 * each filled in from the PDF and from the `values` JSON; what the visitor changes is written there.
 */
export function FormFill({ pdf, values, onChange }: FieldsView) {
  const t = useT();
  const [fields, setFields] = useState<FormField[]>();
  useEffect(() => {
    let current = true;
    pdf.fields().then(
      (read) => {
        if (!current) return;
        setFields(read);
        // A form sent as it is, no field changed, is still a form to draw: its values are none, not missing.
        if (!values.values) onChange({ values: '{}' });
      },
      () => current && setFields([]),
    );
    return () => {
      current = false;
    };
    // Read once for each document; the values and onChange change with every keystroke.
  }, [pdf]);
  const json = values.values ?? '';
  const given = parseValues(json);
  const set = (name: string, value: FieldValue) => onChange({ values: withValue(json, name, value) });
  if (!fields) return <p className="note">{t('planner.fieldsLoading')}</p>;
  if (fields.length === 0) return <p className="note">{t('planner.noFields')}</p>;
  return (
    <div className="form-fill">
      <p className="hint">{t('planner.fieldsHint', { count: fields.length })}</p>
      <ul>
        {fields.map((f) => (
          <li key={f.name}>
            <FieldControl field={f} given={given[f.name]} onValue={(v) => set(f.name, v)} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function FieldControl({
  field: f,
  given,
  onValue,
}: {
  field: FormField;
  given: FieldValue | undefined;
  onValue: (value: FieldValue) => void;
}) {
  const t = useT();
  const id = useId();
  const where = t('planner.onPage', { page: f.page });
  switch (f.kind) {
    case 'text': {
      const value = typeof given === 'string' ? given : f.value;
      const hint = f.format ? t('planner.dateFormat', { format: f.format }) : undefined;
      const props = {
        id,
        value,
        maxLength: f.maxLength,
        placeholder: f.format,
        'aria-describedby': `${id}-where`,
        onChange: (e: { target: { value: string } }) => onValue(e.target.value),
      };
      return (
        <div className="field">
          <label htmlFor={id}>{f.name}</label>
          {f.multiline ? <textarea rows={3} {...props} /> : <input type="text" {...props} />}
          <span className="hint" id={`${id}-where`}>
            {[where, hint].filter(Boolean).join(' · ')}
          </span>
        </div>
      );
    }
    case 'checkbox':
      return (
        <label className="check">
          <input
            type="checkbox"
            checked={typeof given === 'boolean' ? given : f.checked}
            onChange={(e) => onValue(e.target.checked)}
            aria-describedby={`${id}-where`}
          />
          {f.name}
          <span className="hint" id={`${id}-where`}>
            {where}
          </span>
        </label>
      );
    case 'radio': {
      const value = typeof given === 'string' ? given : f.value;
      return (
        <fieldset className="radio-group">
          <legend>
            {f.name} <span className="hint">{where}</span>
          </legend>
          {f.options.map((o) => (
            <label key={o} className="check">
              <input type="radio" name={id} value={o} checked={value === o} onChange={() => onValue(o)} />
              {o}
            </label>
          ))}
        </fieldset>
      );
    }
    case 'choice': {
      const value = Array.isArray(given) ? given : typeof given === 'string' ? [given] : f.value;
      return (
        <div className="field">
          <label htmlFor={id}>{f.name}</label>
          <select
            id={id}
            multiple={f.several}
            value={f.several ? value : (value[0] ?? '')}
            aria-describedby={`${id}-where`}
            onChange={(e) => {
              const picked = [...e.target.selectedOptions].map((o) => o.value);
              onValue(f.several ? picked : (picked[0] ?? ''));
            }}
          >
            {!f.several && <option value="">{t('planner.noChoice')}</option>}
            {f.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <span className="hint" id={`${id}-where`}>
            {where}
          </span>
        </div>
      );
    }
  }
}
