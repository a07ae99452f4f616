import { useState, type KeyboardEvent } from 'react';
import { useT } from '../../i18n/use-t.ts';
import { boxText, nudged, pointsPer, rectOfBox, rectOfMargins, type Rect, type Unit } from './crop-box.ts';
import { BoxSurface, useBoxDrawing, useDrawnPage } from './page-surface.tsx';
import type { FieldsView } from './pdf-pages.ts';

/**
 * crop-pdf's page view: one page large, chosen from a strip of thumbnails, on which the part to keep is
 * drawn with a mouse or a finger, or moved and resized with the keyboard; that writes `mode` box and the
 * `box` field in the chosen unit. The box or margins typed in the fields show on the page, the rest shaded.
 */
export function CropView({ pdf, values, onChange }: FieldsView) {
  const t = useT();
  const [shown, setShown] = useState(1);
  const drawn = useDrawnPage(pdf, shown);
  const unit: Unit = values.unit === 'pt' ? 'pt' : 'mm';
  const mode = values.mode ?? 'trim';
  const page = drawn && { width: drawn.width, height: drawn.height };
  const asked =
    page && mode === 'box'
      ? rectOfBox(values.box ?? '', unit)
      : page && mode === 'margins'
        ? rectOfMargins(
            { top: values.top ?? '', right: values.right ?? '', bottom: values.bottom ?? '', left: values.left ?? '' },
            unit,
            page,
          )
        : undefined;
  const kept = mode === 'box' && asked && values.box!.split(',').map((n) => n.trim());

  const write = (r: Rect) => onChange({ mode: 'box', box: boxText(r, unit, page!) });
  const { drawing, handlers } = useBoxDrawing(page, write);
  const rect = drawing ?? asked;
  function key(e: KeyboardEvent) {
    if (!page) return;
    const next = nudged(asked ?? { left: 0, top: 0, ...page }, e.key, e.shiftKey, pointsPer[unit], page);
    if (!next) return;
    e.preventDefault();
    write(next);
  }

  return (
    <div className="planner crop-view">
      <BoxSurface
        pdf={pdf}
        shown={shown}
        onShow={setShown}
        drawn={drawn}
        hint={t('planner.cropHint')}
        area={t('planner.cropArea', { page: shown })}
        handlers={handlers}
        onKeyDown={key}
      >
        {page && rect && (
          <>
            <path
              className="crop-shade"
              fillRule="evenodd"
              d={`M0 0H${page.width}V${page.height}H0Z M${rect.left} ${rect.top}h${rect.width}v${rect.height}h${-rect.width}Z`}
            />
            <rect className="crop-edge" x={rect.left} y={rect.top} width={rect.width} height={rect.height} />
          </>
        )}
      </BoxSurface>
      <p className="note" aria-live="polite">
        {kept
          ? t('planner.kept', { left: kept[0]!, top: kept[1]!, width: kept[2]!, height: kept[3]!, unit })
          : mode === 'trim'
            ? t('planner.cropAuto')
            : ''}
      </p>
    </div>
  );
}
