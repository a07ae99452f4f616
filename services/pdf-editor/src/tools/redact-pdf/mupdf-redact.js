/* global PDFDocument, read, scriptArgs */
// Run by MuPDF's `mutool run` (its own ES5 JavaScript engine, not Node):
//   text  <in.pdf> <out.json>           each page's text as MuPDF reads it, lines ending in "\n"
//   apply <in.pdf> <plan.json> <out.pdf> redacts what the plan names, then saves
// Both read a page's characters in the same order, so that a plan's ranges (offsets in a page's text, as
// `text` gave it) name the same characters when they are applied.

/** A page's characters in reading order: its text, and each character's quad (null for a line's end). */
function characters(page) {
  var text = '';
  var quads = [];
  page.toStructuredText('preserve-whitespace').walk({
    onChar: function (c, origin, font, size, quad) {
      text += c;
      quads.push(quad);
    },
    endLine: function () {
      text += '\n';
      quads.push(null);
    },
  });
  return { text: text, quads: quads };
}

/** One quad per run of a range's characters on one line: [ul, ur, ll, lr], as MuPDF writes them. */
function rangeQuads(quads, start, end) {
  var out = [];
  var first = null;
  var last = null;
  for (var i = start; i <= end; i++) {
    var q = i < end ? quads[i] : null;
    if (q && first) {
      last = q;
      continue;
    }
    if (first) out.push([first[0], first[1], last[2], last[3], first[4], first[5], last[6], last[7]]);
    first = q;
    last = q;
  }
  return out;
}

function writeText(input, output) {
  var doc = new PDFDocument(input);
  var pages = [];
  for (var i = 0; i < doc.countPages(); i++) pages.push(characters(doc.loadPage(i)).text);
  var out = new Buffer();
  out.write(JSON.stringify(pages));
  out.save(output);
}

/**
 * plan: [{page, ranges: [[start, end]], boxes: [[left, top, width, height]]}], pages from 0, boxes in
 * fractions of the page as shown. Text under a redaction leaves the content stream, image pixels under it
 * are blanked (method 2), and a black box is drawn in its place.
 */
function apply(input, planFile, output) {
  var doc = new PDFDocument(input);
  var plan = JSON.parse(read(planFile));
  for (var p = 0; p < plan.length; p++) {
    var step = plan[p];
    var page = doc.loadPage(step.page);
    var quads = step.ranges.length ? characters(page).quads : [];
    for (var r = 0; r < step.ranges.length; r++) {
      var found = rangeQuads(quads, step.ranges[r][0], step.ranges[r][1]);
      if (found.length) page.createAnnotation('Redact').setQuadPoints(found);
    }
    var b = page.bound();
    var w = b[2] - b[0];
    var h = b[3] - b[1];
    for (var k = 0; k < step.boxes.length; k++) {
      var box = step.boxes[k];
      var left = b[0] + box[0] * w;
      var top = b[1] + box[1] * h;
      page.createAnnotation('Redact').setRect([left, top, left + box[2] * w, top + box[3] * h]);
    }
    page.applyRedactions(true, 2);
  }
  doc.save(output, 'garbage,compress');
}

if (scriptArgs[0] === 'text') writeText(scriptArgs[1], scriptArgs[2]);
else if (scriptArgs[0] === 'apply') apply(scriptArgs[1], scriptArgs[2], scriptArgs[3]);
else throw new Error('usage: text|apply ...');
