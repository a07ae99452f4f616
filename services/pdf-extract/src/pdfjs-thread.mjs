/**
 * A worker thread that runs pdf.js's worker code (parsing, decoding) for the main thread's pdf.js,
 * which talks to it on the port it is given (see pdfjs.ts). Plain JavaScript: worker threads do not
 * take tsx's loader.
 */
import { workerData } from 'node:worker_threads';
import { WorkerMessageHandler } from 'pdfjs-dist/legacy/build/pdf.worker.mjs';

/** The exceptions pdf.js throws about a file (its classes are not exported: known by name). */
const pdfjsExceptions = new Set(
  (
    'AbortException DNLMarkerError EOIMarkerError FormatError InvalidPDFException Jbig2Error JpegError JpxError ' +
    'MissingDataException ParserEOFException PasswordException RenderingCancelledException ResponseException ' +
    'UnknownErrorException XRefEntryException XRefParseException'
  ).split(' '),
);

// pdf.js prefetches objects it may never wait for (the page tree's kids, in Catalog.getPageDict); in a
// damaged file those reject with nobody listening, which would end this thread in the middle of a
// document. The document's own requests get their answers all the same. Anything else still ends it.
process.on('unhandledRejection', (reason) => {
  if (!pdfjsExceptions.has(reason?.name)) throw reason;
});

WorkerMessageHandler.initializeFromPort(workerData.port);
