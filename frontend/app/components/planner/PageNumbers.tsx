import { useT } from '../../i18n/use-t.ts';
import { labelPlace, labelsOf, numberingOf } from './number-preview.ts';
import { marksOf } from './page-marks.ts';
import { PagePicker } from './PagePicker.tsx';
import type { FieldsView } from './pdf-pages.ts';

/** add-page-numbers' page view: the pages to number, each numbered page showing its number where it will be. */
export function PageNumbers({ pdf, values, onChange }: FieldsView) {
  const numbering = numberingOf(values);
  const pages = values.pages ?? '';
  const marks = marksOf(pages, pdf.pageCount);
  // No page chosen numbers them all.
  const numbered = !marks
    ? []
    : marks.size
      ? [...marks].sort((a, b) => a - b)
      : Array.from({ length: pdf.pageCount }, (_, i) => i + 1);
  const labels = labelsOf(numbered, numbering);
  const t = useT();
  return (
    <PagePicker
      pdf={pdf}
      pages={pages}
      onPages={(next) => onChange({ pages: next })}
      purpose="number"
      said={(page) => {
        const label = labels.get(page);
        return label === undefined ? undefined : t('planner.numberedAs', { label });
      }}
      overlay={(page) => {
        const label = labels.get(page);
        if (label === undefined) return undefined;
        return function NumberLabel(size) {
          // In the corner the number goes to, large enough to read on a thumbnail.
          const at = labelPlace({ ...numbering, fontSize: Math.max(numbering.fontSize, size.width / 14) }, size);
          return (
            <text className="number-preview" x={at.x} y={at.y} fontSize={at.size} textAnchor={at.anchor}>
              {label}
            </text>
          );
        };
      }}
    />
  );
}
