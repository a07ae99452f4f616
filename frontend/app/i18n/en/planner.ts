import { addEnglish } from '../dictionary.ts';

/** The page planner’s English copy. It loads with the planner, once a PDF is chosen, so that other pages never carry it. */
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
  unreadable: 'The pages of this file cannot be shown here; type the plan instead.',
  locked: 'This PDF is protected: enter its password below to see its pages, or type the plan instead.',
  wrongPassword: 'That password does not open this PDF; try again, or type the plan instead.',
  notShown: 'This plan cannot be shown as pages of this PDF; fix it, or start over.',
});
