/* global PDFDocument, print, scriptArgs */
// Run by MuPDF's `mutool run` (its own ES5 JavaScript engine, not Node): `mupdf-count.js <a.pdf> <b.pdf>...`
// prints each file's page count on a line of its own, in order; a file MuPDF cannot open ends the run
// with an error.
for (var i = 0; i < scriptArgs.length; i++) print(new PDFDocument(scriptArgs[i]).countPages());
