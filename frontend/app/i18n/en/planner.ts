import { addEnglish } from '../dictionary.ts';

/** The page views’ English copy (organize, delete, number and crop pages). It loads with them, once a PDF is chosen, so that other pages never carry it. */
export const planner = addEnglish('planner', {
  title: 'Pages',
  loading: 'Reading the pages…',
  hint: 'Drag pages into a new order, or use the keyboard: arrow keys go from page to page, Shift with an arrow moves a page, R rotates, Delete removes, Space selects.',
  page: 'Page {{page}}, position {{position}} of {{count}}',
  blank: 'Blank page, position {{position}} of {{count}}',
  turnedBy: 'turned {{turn}}°',
  earlier: 'Move earlier',
  later: 'Move later',
  rotate: 'Rotate',
  remove: 'Delete',
  reset: 'Start over',
  movedTo: 'Page {{page}} moved to position {{position}} of {{count}}.',
  rotated: 'Rotated: pages {{pages}}.',
  removed: 'Deleted: pages {{pages}}.',
  unreadable: 'The pages of this file cannot be shown here; fill in the options instead.',
  locked: 'This PDF is protected: enter its password below to see its pages, or fill in the options instead.',
  wrongPassword: 'That password does not open this PDF; try again, or fill in the options instead.',
  notShown: 'This plan cannot be shown as pages of this PDF; fix it, or start over.',
  pageOf: 'Page {{page}} of {{count}}',
  removeTitle: 'Pages to delete',
  removeHint: 'Click or tap the pages to delete, or go from page to page with the arrow keys and press Space.',
  numberTitle: 'Pages to number',
  numberHint:
    'Click or tap the pages to number, or go from page to page with the arrow keys and press Space. With none chosen, every page gets a number.',
  rangesNotShown: 'These pages cannot be marked on this PDF; fix them, or clear them.',
  clear: 'Clear',
  cropHint:
    'Draw the part to keep with a mouse or a finger. With the keyboard: the arrow keys move the box, Shift with an arrow makes it larger or smaller.',
  cropPages: 'Page shown',
  showPage: 'Show page {{page}}',
  cropArea: 'Page {{page}}: the part to keep',
  kept: 'Kept: {{width}} × {{height}} {{unit}}, {{left}} from the left and {{top}} from the top.',
  numberedAs: 'numbered “{{label}}”',
  cropAuto: 'The white margins of each page are found by themselves; draw a box to choose the part to keep yourself.',
});
