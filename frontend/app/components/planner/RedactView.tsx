import { useState, type KeyboardEvent } from 'react';
import { useT } from '../../i18n/use-t.ts';
import { nudged, pointsPer } from './crop-box.ts';
import { BoxSurface, useBoxDrawing, useDrawnPage } from './page-surface.tsx';
import type { FieldsView } from './pdf-pages.ts';
import { boxesOf, boxesText, boxOfRect, middleBox, rectOfBox } from './redact-boxes.ts';

/**
 * redact-pdf's page view: one page large, chosen from a strip of thumbnails, on which areas to black out
 * are drawn with a mouse or a finger; with the keyboard, Enter puts a box in the page's middle, the arrow
 * keys move the last one, Shift with an arrow resizes it. The boxes of every page are listed, each with a
 * button that removes it, and written to the `boxes` field.
 */
export function RedactView({ pdf, values, onChange }: FieldsView) {
  const t = useT();
  const [shown, setShown] = useState(1);
  const drawn = useDrawnPage(pdf, shown);
  const page = drawn && { width: drawn.width, height: drawn.height };
  const boxes = boxesOf(values.boxes ?? '');
  const write = (next: typeof boxes) => onChange({ boxes: boxesText(next) });
  const { drawing, handlers } = useBoxDrawing(page, (r) => write([...boxes, boxOfRect(shown, r, page!)]));
  const onPage = boxes.filter((b) => b.page === shown);

  function key(e: KeyboardEvent) {
    if (!page) return;
    const last = boxes.findLastIndex((b) => b.page === shown);
    // Enter (or an arrow on a page without a box) puts a new box in the middle of the page.
    if (e.key === 'Enter' || (last < 0 && e.key.startsWith('Arrow'))) {
      e.preventDefault();
      return write([...boxes, middleBox(shown)]);
    }
    if (last < 0) return;
    const next = nudged(rectOfBox(boxes[last]!, page), e.key, e.shiftKey, 2 * pointsPer.mm, page);
    if (!next) return;
    e.preventDefault();
    write(boxes.map((b, i) => (i === last ? boxOfRect(shown, next, page) : b)));
  }

  return (
    <div className="planner crop-view redact-view">
      <BoxSurface
        pdf={pdf}
        shown={shown}
        onShow={setShown}
        drawn={drawn}
        hint={t('planner.redactHint')}
        area={t('planner.redactArea', { page: shown })}
        handlers={handlers}
        onKeyDown={key}
      >
        {page &&
          [...onPage.map((b) => rectOfBox(b, page)), ...(drawing ? [drawing] : [])].map((r, i) => (
            <rect key={i} className="redact-box" x={r.left} y={r.top} width={r.width} height={r.height} />
          ))}
      </BoxSurface>
      <p className="note" aria-live="polite">
        {t('planner.redactCount', { count: boxes.length })}
      </p>
      {boxes.length > 0 && (
        <ul className="redact-list">
          {boxes.map((b, i) => (
            <li key={i}>
              {t('planner.redactBox', {
                page: b.page,
                left: Math.round(b.x * 100),
                top: Math.round(b.y * 100),
                width: Math.round(b.width * 100),
                height: Math.round(b.height * 100),
              })}{' '}
              <button type="button" onClick={() => write(boxes.filter((_, j) => j !== i))}>
                {t('planner.redactRemove', { number: i + 1 })}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
