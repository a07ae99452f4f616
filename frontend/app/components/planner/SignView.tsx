import '@fontsource/dancing-script/400.css';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useT } from '../../i18n/use-t.ts';
import { useDrawnPage } from './page-surface.tsx';
import { nudged, pointOnPage, type Point } from './crop-box.ts';
import type { FieldsView } from './pdf-pages.ts';
import { SignaturePad } from './SignaturePad.tsx';
import { canvasPng, handwriting, shownPage, typedSignature } from './signature-source.ts';

type Source = 'draw' | 'type' | 'upload';
const sources: Source[] = ['draw', 'type', 'upload'];
/** Shares of the page: where a signature is placed and how wide (the tool's options x, y and size). */
const unit = { width: 1, height: 1 };
const share = (n: number) => String(Math.round(n * 1000) / 1000);

/**
 * sign-pdf's page view: the signature drawn, typed or uploaded, sent as the call's image file, and
 * placed on the page shown by dragging it (mouse, pen, finger) or with the arrow keys (Shift resizes);
 * that writes the `x`, `y` and `size` fields.
 */
export function SignView({ pdf, values, onChange, onFiles }: FieldsView & { onFiles: (files: File[]) => void }) {
  const t = useT();
  const [source, setSource] = useState<Source>('draw');
  const [typed, setTyped] = useState('');
  const [image, setImage] = useState<{ file: File; url: string }>();
  const [aspect, setAspect] = useState(1 / 3);
  const [grab, setGrab] = useState<Point>();
  const page = shownPage(values.page ?? 'last', pdf.pageCount);
  const drawn = useDrawnPage(pdf, page);
  const [x, y, size] = [Number(values.x) || 0, Number(values.y) || 0, Number(values.size) || 0.3];
  const height = drawn ? (size * aspect * drawn.width) / drawn.height : 0;

  function use(file: File | undefined) {
    setImage(file && { file, url: URL.createObjectURL(file) });
    onFiles(file ? [file] : []);
  }
  useEffect(() => () => image && URL.revokeObjectURL(image.url), [image]);
  useEffect(() => {
    if (source !== 'type') return;
    let current = true;
    void typedSignature(typed).then(async (c) => current && use(c && (await canvasPng(c, 'signature.png'))));
    return () => {
      current = false;
    };
  }, [typed, source]);

  // Where the signature was last put: keys pressed faster than the page shows each move go on from
  // there, not from the place the last render showed. A place shown that was not asked for here (typed in
  // the fields) is taken up.
  const last = useRef({ x, y, size });
  const asked = useRef(new Set<string>());
  useEffect(() => {
    if (asked.current.delete(`${x}:${y}:${size}`)) return;
    asked.current.clear();
    last.current = { x, y, size };
  }, [x, y, size]);

  const place = (left: number, top: number, width = last.current.size) => {
    const next = {
      x: share(Math.max(0, Math.min(1 - width, left))),
      y: share(Math.max(0, Math.min(1 - (height * width) / size, top))),
      size: share(width),
    };
    last.current = { x: Number(next.x), y: Number(next.y), size: Number(next.size) };
    asked.current.add(`${last.current.x}:${last.current.y}:${last.current.size}`);
    onChange(next);
  };
  const at = (e: PointerEvent<HTMLDivElement>) =>
    pointOnPage({ x: e.clientX, y: e.clientY }, e.currentTarget.getBoundingClientRect(), unit);

  function down(e: PointerEvent<HTMLDivElement>) {
    if (!image || (e.pointerType === 'mouse' && e.button !== 0)) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus({ preventScroll: true });
    const p = at(e);
    const onMark = p.x >= x && p.x <= x + size && p.y >= y && p.y <= y + height;
    // Grabbed, the signature keeps its offset from the pointer; elsewhere, its corner goes to the pointer.
    const offset = onMark ? { x: p.x - x, y: p.y - y } : { x: 0, y: 0 };
    setGrab(offset);
    if (!onMark) place(p.x, p.y);
  }
  function move(e: PointerEvent<HTMLDivElement>) {
    if (!grab) return;
    const p = at(e);
    place(p.x - grab.x, p.y - grab.y);
  }
  function key(e: KeyboardEvent) {
    const at = last.current;
    const next = nudged(
      { left: at.x, top: at.y, width: at.size, height: (height * at.size) / size },
      e.key,
      e.shiftKey,
      0.01,
      unit,
    );
    if (!next || !image) return;
    e.preventDefault();
    place(next.left, next.top, Math.max(0.02, next.width));
  }

  return (
    <div className="planner sign-view">
      <div role="tablist" aria-label={t('planner.signTitle')} className="sign-tabs">
        {sources.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={source === s}
            className={source === s ? 'button primary' : 'button'}
            onClick={() => (setSource(s), use(undefined))}
          >
            {t(`planner.sign_${s}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {source === 'draw' && <SignaturePad onSignature={use} />}
        {source === 'type' && (
          <input
            type="text"
            aria-label={t('planner.signTyped')}
            value={typed}
            maxLength={60}
            style={{ fontFamily: handwriting, fontSize: '2rem' }}
            onChange={(e) => setTyped(e.target.value)}
          />
        )}
        {source === 'upload' && (
          <input
            type="file"
            aria-label={t('planner.signUpload')}
            accept="image/png,image/jpeg"
            onChange={(e) => use(e.target.files?.[0])}
          />
        )}
      </div>
      <p className="hint" id="sign-hint">
        {image ? t('planner.signPlace') : t('planner.signNone')}
      </p>
      <div
        className="crop-surface sign-surface"
        role="application"
        tabIndex={0}
        aria-label={t('planner.signArea', { page })}
        aria-describedby="sign-hint"
        style={drawn && { aspectRatio: `${drawn.width} / ${drawn.height}` }}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={() => setGrab(undefined)}
        onPointerCancel={() => setGrab(undefined)}
        onKeyDown={key}
      >
        {drawn && <img src={drawn.url} alt="" draggable={false} />}
        {image && (
          <img
            className="sign-mark"
            src={image.url}
            alt=""
            draggable={false}
            style={{ left: `${x * 100}%`, top: `${y * 100}%`, width: `${size * 100}%`, height: 'auto' }}
            onLoad={(e) => setAspect(e.currentTarget.naturalHeight / e.currentTarget.naturalWidth || 1 / 3)}
          />
        )}
      </div>
    </div>
  );
}
