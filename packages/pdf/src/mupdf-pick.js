/* global PDFDocument, print, scriptArgs */
// Run by MuPDF's `mutool run` (its own ES5 JavaScript engine, not Node): `mupdf-pick.js <in.pdf>
// <out.pdf> <pages>` copies the pages (numbers from 1, comma-separated, in that order) into a new PDF,
// their streams as they are and what they share copied once, and prints how many pages it holds. A page
// the file does not have ends the run with an error.
var source = new PDFDocument(scriptArgs[0]);
var wanted = scriptArgs[2].split(',');
var count = source.countPages();
var copy = new PDFDocument();
var shared = copy.newGraftMap();
for (var i = 0; i < wanted.length; i++) {
  var page = Number(wanted[i]);
  if (!(page >= 1 && page <= count)) throw new Error('no page ' + wanted[i]);
  shared.graftPage(-1, source, page - 1);
}
copy.save(scriptArgs[1], '');
print(copy.countPages());
