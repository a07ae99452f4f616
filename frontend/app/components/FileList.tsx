import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useLanguageCode, useT } from '../i18n/use-t.ts';
import { formatSize } from '../lib/file-size.ts';

/**
 * The chosen files in the order they will be sent, each with its size and a control to remove it. When
 * the order matters (a tool that takes several files), the files can be dragged into place, or moved
 * with their arrow buttons from the keyboard; the focus stays with the moved file and the move is said.
 */
export function FileList({
  files,
  onChange,
  reorder,
}: {
  files: File[];
  onChange: (files: File[]) => void;
  reorder: boolean;
}) {
  const t = useT();
  const language = useLanguageCode();
  const [dragged, setDragged] = useState<number>();
  /** The last file moved from its arrows: the status line says where it went. */
  const [moved, setMoved] = useState<File>();
  /** Where the focus goes once a move has rendered. */
  const focusAfterMove = useRef<{ file: File; button: 'up' | 'down' }>(undefined);
  const list = useRef<HTMLOListElement>(null);

  // After a move from the keyboard, the focus follows the file (or goes to its other arrow at an end).
  useEffect(() => {
    const target = focusAfterMove.current;
    focusAfterMove.current = undefined;
    if (!target) return;
    const row = list.current?.children[files.indexOf(target.file)];
    const wanted = row?.querySelector<HTMLButtonElement>(`button[data-move="${target.button}"]`);
    const other = row?.querySelector<HTMLButtonElement>(`button[data-move]:not([data-move="${target.button}"])`);
    (wanted && !wanted.disabled ? wanted : other)?.focus();
  }, [files]);

  const move = (from: number, to: number) => {
    if (to < 0 || to >= files.length || from === to) return;
    const next = [...files];
    const [file] = next.splice(from, 1);
    next.splice(to, 0, file!);
    onChange(next);
    return file!;
  };
  const moveBy = (i: number, by: -1 | 1) => {
    const file = move(i, i + by);
    if (!file) return;
    focusAfterMove.current = { file, button: by < 0 ? 'up' : 'down' };
    setMoved(file);
  };
  const drop = (e: DragEvent, to: number) => {
    e.preventDefault();
    if (dragged !== undefined) move(dragged, to);
    setDragged(undefined);
  };

  const position = moved ? files.indexOf(moved) : -1;
  return (
    <>
      {reorder && files.length > 1 && <p className="hint">{t('upload.reorderHint')}</p>}
      <ol className="file-list" aria-label={t('upload.files')} ref={list}>
        {files.map((file, i) => (
          <li
            key={`${file.name}-${file.size}-${file.lastModified}-${i}`}
            className={dragged === i ? 'dragging' : undefined}
            draggable={reorder}
            onDragStart={
              reorder
                ? (e) => {
                    setDragged(i);
                    e.dataTransfer.effectAllowed = 'move';
                    // Firefox starts a drag only with some data set.
                    e.dataTransfer.setData('text/plain', file.name);
                  }
                : undefined
            }
            onDragOver={reorder && dragged !== undefined ? (e) => e.preventDefault() : undefined}
            onDrop={reorder && dragged !== undefined ? (e) => drop(e, i) : undefined}
            onDragEnd={() => setDragged(undefined)}
          >
            {reorder && (
              <span className="grip" aria-hidden="true">
                ⠿
              </span>
            )}
            <span className="file-name">{file.name}</span>
            <span className="file-size">{formatSize(file.size, language)}</span>
            {reorder && (
              <>
                <button
                  type="button"
                  className="icon-button"
                  data-move="up"
                  disabled={i === 0}
                  aria-label={t('upload.moveUp', { name: file.name })}
                  onClick={() => moveBy(i, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="icon-button"
                  data-move="down"
                  disabled={i === files.length - 1}
                  aria-label={t('upload.moveDown', { name: file.name })}
                  onClick={() => moveBy(i, 1)}
                >
                  ↓
                </button>
              </>
            )}
            <button
              type="button"
              className="icon-button"
              aria-label={t('upload.remove', { name: file.name })}
              onClick={() => onChange(files.filter((_, k) => k !== i))}
            >
              ✕
            </button>
          </li>
        ))}
      </ol>
      {reorder && (
        <p className="visually-hidden" role="status">
          {moved && position >= 0
            ? t('upload.moved', { name: moved.name, position: position + 1, count: files.length })
            : ''}
        </p>
      )}
    </>
  );
}
