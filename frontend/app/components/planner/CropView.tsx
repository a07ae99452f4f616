import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useT } from '../../i18n/use-t.ts';
import {
  boxText,
  nudged,
  pointOnPage,
  pointsPer,
  rectBetween,
  rectOfBox,
  rectOfMargins,
  type Point,
  type Rect,
  type Unit,
} from './crop-box.ts';
import { PageThumb } from './PageThumb.tsx';
import type { Drawn, FieldsView, ReadablePdf } from './pdf-pages.ts';
import { useRovingFocus } from './roving-focus.ts';

/** Width of the large page in CSS pixels at most (styles.css), drawn sharper on a dense screen. */
const shownWidth = 512;

/**
 * crop-pdf's page view: one page large, chosen from a strip of thumbnails, on which the part to keep is
 * drawn with a mouse or a finger, or moved and resized with the keyboard; that writes `mode` box and the
 * `box` field in the chosen unit. The box or margins typed in the fields show on the page, the rest shaded.
 */
export function CropView({ pdf, values, onChange }: FieldsView) {
  const t = useT();
  const [shown, setShown] = useState(1);
  const drawn = useDrawnPage(pdf, shown);
  const [drag, setDrag] = useState<{ from: Point; to: Point }>();
  const item = useRovingFocus(pdf.pageCount);
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
  const rect = drag ? rectBetween(drag.from, drag.to) : asked;
  const kept = mode === 'box' && asked && values.box!.split(',').map((n) => n.trim());

  const write = (r: Rect) => onChange({ mode: 'box', box: boxText(r, unit, page!) });
  const at = (e: PointerEvent<HTMLDivElement>) =>
    pointOnPage({ x: e.clientX, y: e.clientY }, e.currentTarget.getBoundingClientRect(), page!);

  function down(e: PointerEvent<HTMLDivElement>) {
    if (!page || (e.pointerType === 'mouse' && e.button !== 0)) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus({ preventScroll: true });
    const p = at(e);
    setDrag({ from: p, to: p });
  }
  function up(e: PointerEvent<HTMLDivElement>) {
    if (!drag) return;
    const r = rectBetween(drag.from, at(e));
    setDrag(undefined);
    // A tap, or a slip of a few points, leaves the box as it was.
    if (r.width >= 3 && r.height >= 3) write(r);
  }
  function key(e: KeyboardEvent) {
    if (!page) return;
    const next = nudged(asked ?? { left: 0, top: 0, ...page }, e.key, e.shiftKey, pointsPer[unit], page);
    if (!next) return;
    e.preventDefault();
    write(next);
  }

  return (
    <div className="planner crop-view">
      <p className="hint" id="crop-hint">
        {t('planner.cropHint')}
      </p>
      {pdf.pageCount > 1 && (
        <ol className="page-strip" aria-label={t('planner.cropPages')}>
          {Array.from({ length: pdf.pageCount }, (_, i) => (
            <li key={i}>
              <button
                type="button"
                {...item(i)}
                aria-pressed={shown === i + 1}
                aria-label={t('planner.showPage', { page: i + 1 })}
                onClick={() => setShown(i + 1)}
              >
                <PageThumb page={i + 1} draw={pdf.draw} />
                <span className="page-number" aria-hidden="true">
                  {i + 1}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
      <div
        className="crop-surface"
        role="application"
        tabIndex={0}
        aria-label={t('planner.cropArea', { page: shown })}
        aria-describedby="crop-hint"
        style={page && { aspectRatio: `${page.width} / ${page.height}` }}
        onPointerDown={down}
        onPointerMove={(e) => drag && setDrag({ ...drag, to: at(e) })}
        onPointerUp={up}
        onPointerCancel={() => setDrag(undefined)}
        onKeyDown={key}
      >
        {drawn && <img src={drawn.url} alt="" draggable={false} />}
        {page && rect && (
          <svg viewBox={`0 0 ${page.width} ${page.height}`} preserveAspectRatio="none" aria-hidden="true">
            <path
              className="crop-shade"
              fillRule="evenodd"
              d={`M0 0H${page.width}V${page.height}H0Z M${rect.left} ${rect.top}h${rect.width}v${rect.height}h${-rect.width}Z`}
            />
            <rect className="crop-edge" x={rect.left} y={rect.top} width={rect.width} height={rect.height} />
          </svg>
        )}
      </div>
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

/** The page drawn large, again when another page is shown; the image before is let go once the next is in. */
export function useDrawnPage(pdf: ReadablePdf, page: number): Drawn | undefined {
  const [drawn, setDrawn] = useState<Drawn>();
  const width = useRef(Math.round(shownWidth * Math.min(2, globalThis.devicePixelRatio || 1)));
  useEffect(() => {
    const abort = new AbortController();
    pdf.draw(page, abort.signal, width.current).then(
      (result) => (abort.signal.aborted ? URL.revokeObjectURL(result.url) : setDrawn(result)),
      () => undefined, // a page pdf.js cannot draw: the fields still work
    );
    return () => abort.abort();
  }, [pdf, page]);
  useEffect(() => () => drawn && URL.revokeObjectURL(drawn.url), [drawn]);
  return drawn;
}
