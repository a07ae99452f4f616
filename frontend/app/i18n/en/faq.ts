import { addEnglish } from '../dictionary.ts';

/** The FAQ page’s English copy. It loads with the pages that show it, so that other pages never carry it. */
export const faq = addEnglish('faq', {
  title: 'Frequently Asked Questions',
  description: 'Answers about how Quire handles your files, what it costs and what each tool can do.',
  q1: 'Is Quire really free?',
  a1: 'Yes. Every tool is free, with no paid plans and no watermark added to your files.',
  q2: 'Do I need an account?',
  a2: 'No. Every tool works without signing in. An account only adds a history of your own runs.',
  q3: 'What happens to my files?',
  a3: 'Files are processed on our servers and the results are deleted automatically after {{minutes}} minutes. We do not look at them, share them or keep copies.',
  q4: 'How large can a file be?',
  a4: 'Up to {{mb}} MB per upload.',
  q5: 'Can I open a password-protected PDF?',
  a5: 'Yes, if you know its password: the tool asks for it. Unlock PDF removes a password you know, and removes restrictions from files that open without one.',
  q6: 'Why did my converted Word file come out without text?',
  a6: 'If the PDF is a scan, its pages are pictures with no text inside. Quire does not read text from pictures yet.',
  q7: 'Can I chain several tools?',
  a7: 'Yes: the Workflow Builder runs up to several tools in a row on one file, and the links under each result carry it into the next tool.',
});
