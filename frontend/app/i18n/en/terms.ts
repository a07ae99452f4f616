import { addEnglish } from '../dictionary.ts';

/** The terms’ English copy. It loads with the pages that show it, so that other pages never carry it. */
export const terms = addEnglish('terms', {
  title: 'Terms & Conditions',
  description: 'The rules for using Quire’s free PDF tools.',
  updated: 'Last updated: 22 November 2026',
  useTitle: 'Using Quire',
  useText:
    'Quire is free to use for personal and business work. Upload only files you have the right to process, and do not use the service to break the law or to attack it or others.',
  filesTitle: 'Your files stay yours',
  filesText:
    'You keep every right in the files you upload and the results you download. We process them only to give you the result and delete them after {{minutes}} minutes.',
  limitsTitle: 'Limits',
  limitsText:
    'Uploads are limited to {{mb}} MB, and very heavy jobs may be stopped after a time limit. To keep the service fair, a client that sends too many requests in a short time is asked to wait.',
  warrantyTitle: 'No warranty',
  warrantyText:
    'We check every result before offering it, but conversions can never be perfect for every file. Keep your originals. The service is provided as it is, without warranty of any kind.',
  changesTitle: 'Changes',
  changesText: 'We may change these terms; the date above shows the latest version.',
});
