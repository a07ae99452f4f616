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
    setFiles(takesMany(tool) || batch ? [...files, ...chosen].slice(0, max) : chosen.slice(0, 1));
    setCarried(false);
    return true;
  }

  return { files, carried, choose, setFiles };
}
