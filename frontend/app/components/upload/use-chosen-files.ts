import { useEffect, useState } from 'react';
import { takesMany, type Tool } from '../../lib/tools.ts';
import { takeHandoff } from '../../lib/handoff.ts';

/**
 * The files to send: those chosen or dropped, or a result carried in from the previous tool. `batch`:
 * a single-file tool that takes up to that many files as a batch (a workflow's first step).
 */
export function useChosenFiles(tool: Tool, batch?: number) {
  const [files, setFiles] = useState<File[]>([]);
  const [carried, setCarried] = useState(false);
  // A batch's files beyond its bound were left out of the last choice.
  const [tooMany, setTooMany] = useState(false);

  useEffect(() => {
    let current = true;
    void takeHandoff().then((file) => {
      if (file && current) {
        setFiles([file]);
        setCarried(true);
      }
    });
    return () => {
      current = false;
    };
  }, [tool.id]);

  /** Takes a picker's or a drop's files; false when there were none. */
  function choose(list: FileList | File[]): boolean {
    const chosen = [...list];
    if (chosen.length === 0) return false;
    // Single-file tools take the first file of a picker or drop; the others add to the list.
    const max = batch ?? ('kinds' in tool.input ? tool.input.max : 1);
    // A file carried in to a single-file tool gives way to the visitor's own (merge keeps it, to add to).
    const before = carried && !takesMany(tool) ? [] : files;
    const kept = takesMany(tool) || batch ? [...before, ...chosen] : chosen.slice(0, 1);
    setTooMany(batch !== undefined && kept.length > max);
    setFiles(kept.slice(0, max));
    setCarried(false);
    return true;
  }

  return { files, carried, tooMany, choose, setFiles };
}
