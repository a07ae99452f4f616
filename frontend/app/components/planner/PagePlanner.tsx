import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useT } from '../../i18n/use-t.ts';
import { allPages, moved, planOf, rangesOf, sheetsOfPlan, turned, type Sheet } from './page-list.ts';
import { PageThumb } from './PageThumb.tsx';
import type { ReadablePdf } from './pdf-pages.ts';

/**
 * The pages of the chosen PDF as thumbnails, to reorder (drag, or Shift with an arrow key), rotate,
 * select and delete. It writes the page plan and shows the plan typed in the text field where it can.
 */
export function PagePlanner({ pdf, plan, onPlan }: { pdf: ReadablePdf; plan: string; onPlan: (plan: string) => void }) {
  const t = useT();
  const [current, setCurrent] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [said, say] = useState('');
  const [drag, setDrag] = useState<{ from: number; over: number; x: number; y: number; moving: boolean }>();
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const focusNext = useRef<number>(undefined);

  useEffect(() => {
    if (focusNext.current === undefined) return;
    items.current[focusNext.current]?.focus();
    focusNext.current = undefined;
  });

  const count = pdf.pageCount;
  const sheets = sheetsOfPlan(plan, count);
  if (!sheets) {
    return (
      <div className="planner">
        <p className="note">{t('planner.notShown')}</p>
        <button type="button" className="button" onClick={() => onPlan(planOf(allPages(count)))}>
          {t('planner.reset')}
        </button>
      </div>
    );
  }
  const at = Math.min(current, sheets.length - 1);
  const targets = selected.has(at) ? [...selected] : [at];
  const pageNumbers = (positions: number[]) =>
    rangesOf(positions.map((i) => sheets[i]).flatMap((s) => (s && 'page' in s ? [s.page] : [])));

  function change(next: Sheet[], focus: number, message: string) {
    setSelected(new Set());
    setCurrent(focus);
    focusNext.current = focus;
    say(message);
    onPlan(planOf(next));
  }
  function move(from: number, to: number) {
    if (to < 0 || to >= sheets!.length || to === from) return;
    const sheet = sheets![from]!;
    const page = 'page' in sheet ? sheet.page : t('planner.blank', { position: '', count: '' });
    change(moved(sheets!, from, to), to, t('planner.movedTo', { page, position: to + 1, count: sheets!.length }));
  }
  function rotate() {
    change(
      sheets!.map((s, i) => (targets.includes(i) ? turned(s) : s)),
      at,
      t('planner.rotated', { pages: pageNumbers(targets) }),
    );
  }
  function remove() {
    if (targets.length >= sheets!.length) return; // a plan keeps at least one page
    const left = sheets!.filter((_, i) => !targets.includes(i));
    change(left, Math.min(at, left.length - 1), t('planner.removed', { pages: pageNumbers(targets) }));
  }
  function goTo(i: number) {
    const to = Math.max(0, Math.min(sheets!.length - 1, i));
    setCurrent(to);
    items.current[to]?.focus();
  }
  function onKey(e: KeyboardEvent, i: number) {
    // In a right-to-left page the next page is to the left.
    const rtl = getComputedStyle(e.currentTarget).direction === 'rtl';
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    const ahead = step && (rtl && e.key.startsWith('ArrowL') ? 1 : rtl && e.key.startsWith('ArrowR') ? -1 : step);
    if (ahead && e.shiftKey) move(i, i + ahead);
    else if (ahead) goTo(i + ahead);
    else if (e.key === 'Home' || e.key === 'End') goTo(e.key === 'Home' ? 0 : sheets!.length - 1);
    else if (e.key === 'r' || e.key === 'R') rotate();
    else if (e.key === 'Delete' || e.key === 'Backspace') remove();
    else return;
    e.preventDefault();
  }

  // Dragging: a mouse drags a page from anywhere on it, a finger from its grip, so that the grid still scrolls.
  function dragStart(e: PointerEvent, i: number) {
    if (e.pointerType !== 'mouse' && !(e.target as Element).closest('.grip')) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ from: i, over: i, x: e.clientX, y: e.clientY, moving: false });
  }
  function dragMove(e: PointerEvent) {
    if (!drag) return;
    const moving = drag.moving || Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 8;
    const under = document.elementsFromPoint(e.clientX, e.clientY).find((el) => el.matches('[data-position]'));
    const over = under ? Number(under.getAttribute('data-position')) : drag.over;
    if (moving !== drag.moving || over !== drag.over) setDrag({ ...drag, moving, over });
  }
  function dragEnd() {
    if (drag?.moving) move(drag.from, drag.over);
    setDrag(undefined);
  }

  return (
    <div className="planner">
      <p className="hint" id="planner-hint">
        {t('planner.hint')}
      </p>
      <div className="planner-actions" role="toolbar" aria-label={t('planner.title')}>
        <button type="button" className="button" onClick={() => move(at, at - 1)} disabled={at === 0}>
          {t('planner.earlier')}
        </button>
        <button type="button" className="button" onClick={() => move(at, at + 1)} disabled={at >= sheets.length - 1}>
          {t('planner.later')}
        </button>
        <button type="button" className="button" onClick={rotate}>
          {t('planner.rotate')}
        </button>
        <button type="button" className="button" onClick={remove} disabled={targets.length >= sheets.length}>
          {t('planner.remove')}
        </button>
        <button type="button" className="button" onClick={() => change(allPages(count), 0, '')}>
          {t('planner.reset')}
        </button>
      </div>
      <ol className="page-grid" aria-label={t('planner.title')} aria-describedby="planner-hint">
        {sheets.map((sheet, i) => {
          const position = { position: i + 1, count: sheets.length };
          const name =
            'page' in sheet
              ? [
                  t('planner.page', { page: sheet.page, ...position }),
                  sheet.turn ? t('planner.turnedBy', { turn: sheet.turn }) : '',
                ]
              : [t('planner.blank', position)];
          return (
            <li
              key={i}
              data-position={i}
              className={drag?.moving && drag.over === i ? 'drop-here' : undefined}
              onPointerDown={(e) => dragStart(e, i)}
              onPointerMove={dragMove}
              onPointerUp={dragEnd}
              onPointerCancel={() => setDrag(undefined)}
            >
              <button
                type="button"
                ref={(el) => void (items.current[i] = el)}
                tabIndex={i === at ? 0 : -1}
                aria-pressed={selected.has(i)}
                aria-label={name.filter(Boolean).join(', ')}
                onFocus={() => setCurrent(i)}
                onKeyDown={(e) => onKey(e, i)}
                onClick={() => {
                  const next = new Set(selected);
                  if (!next.delete(i)) next.add(i);
                  setSelected(next);
                }}
              >
                {'page' in sheet ? (
                  <PageThumb page={sheet.page} turn={sheet.turn} draw={pdf.draw} />
                ) : (
                  <div className="page-thumb" aria-hidden="true" />
                )}
                <span className="page-number" aria-hidden="true">
                  {'page' in sheet ? sheet.page : '∅'}
                </span>
                <span className="grip" aria-hidden="true">
                  ⠿
                </span>
              </button>
            </li>
          );
        })}
      </ol>
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
    </div>
  );
}
