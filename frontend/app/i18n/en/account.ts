import { addEnglish } from '../dictionary.ts';

/** The account page’s English copy. It loads with the pages that show it, so that other pages never carry it. */
export const account = addEnglish('account', {
  title: 'Account',
  description: 'Your Quire account and the tools you used.',
  signedOut: 'Please log in to view your account.',
  email: 'E-mail',
  name: 'Name',
  saveName: 'Save name',
  saved: 'Saved.',
  avatar: 'Profile picture',
  history: 'Your history',
  noHistory: 'You have not used any tool yet.',
  tool: 'Tool',
  date: 'Date',
  logout: 'Logout',
  result: 'Result',
  download: 'Download',
  expired: 'Expired',
  historyFailed: 'Your history could not be loaded. Please try again later.',
  workflows: 'Your saved workflows',
  noWorkflows: 'No saved workflows yet: save one from the Workflow Builder.',
  workflowsFailed: 'Your workflows could not be loaded. Please try again later.',
  saveFailed: 'The name could not be saved.',
  localHistory: 'Tools used in this browser',
});
