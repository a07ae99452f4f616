import { addEnglish } from '../dictionary.ts';

/** The Workflow Builder’s English copy (the builder and its two pages). It loads with the pages that show it, so that other pages never carry it. */
export const workflow = addEnglish('workflow', {
  title: 'Workflow Builder',
  description: 'Chain tools together: the result of each step goes into the next.',
  file: 'Your file',
  available: 'Tools',
  add: 'Add {{label}}',
  steps: 'Steps, in order',
  empty: 'No tools yet. Add one from the list.',
  remove: 'Remove {{label}}',
  moveUp: 'Move {{label}} up',
  moveDown: 'Move {{label}} down',
  run: 'Run workflow',
  running: 'Running…',
  needInput: 'Please choose a file and select tools.',
  failed: 'Workflow failed.',
  uploadError: 'Error during upload.',
  done: 'Done: your file went through {{count}} steps.',
  savedTitle: 'Saved workflow',
  savedText: 'This workflow runs these steps in order:',
  shareLink: 'Link to this workflow',
});
