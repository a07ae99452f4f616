import { useEffect, useState } from 'react';
import { openPdf, type OpenedPdf } from './pdf-pages.ts';

/** The chosen PDF opened by pdf.js, again whenever the password changes; a locked one asks for its password. */
export function useOpenedPdf(file: File, password: string, onLocked: () => void): OpenedPdf | undefined {
  const [pdf, setPdf] = useState<OpenedPdf>();
  useEffect(() => {
    let current = true;
    let opened: OpenedPdf | undefined;
    setPdf(undefined);
    void openPdf(file, password).then((result) => {
      opened = result;
      if (!current) return void (result.ok && result.close());
      setPdf(result);
      if (!result.ok && result.reason !== 'unreadable') onLocked();
    });
    return () => {
      current = false;
      if (opened?.ok) opened.close();
    };
    // onLocked changes with every render of the form; the document only with the file and password.
  }, [file, password]);
  return pdf;
}
