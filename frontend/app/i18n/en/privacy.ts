import { addEnglish } from '../dictionary.ts';

/** The privacy policy’s English copy. It loads with the pages that show it, so that other pages never carry it. */
export const privacy = addEnglish('privacy', {
  title: 'Privacy Policy',
  description: 'What Quire does with your files and data: as little as possible.',
  updated: 'Last updated: 22 November 2026',
  filesTitle: 'Your files',
  filesText:
    'Files you upload are used only to make the result you asked for. The upload and every temporary file are removed as soon as the result is made; the result itself is deleted automatically {{minutes}} minutes after it is made. We do not look at your files, share them or use them for anything else.',
  accountTitle: 'Accounts',
  accountText:
    'You can use every tool without an account. If you sign in, we keep your e-mail address, your display name and the list of tools you ran with their dates, so that you can see your history.',
  contactTitle: 'Messages and newsletter',
  contactText:
    'When you write to us or subscribe to the newsletter, we keep your name, e-mail address and message to answer you or send the newsletter. Every newsletter holds a link to unsubscribe.',
  storageTitle: 'Cookies and local storage',
  storageText:
    'We set no advertising cookies. Your browser keeps your language, your dark-mode choice and, when you are signed out, a short history of the tools you used, in its own local storage on your device.',
  logsTitle: 'Logs',
  logsText:
    'Our servers log each request (time, address, tool, size and outcome) to keep the service running and to stop abuse. Logs never contain the content of your files.',
  rightsTitle: 'Your rights',
  rightsText:
    'You can ask us to show or delete what we hold about you through the contact page. Deleting your account removes your history.',
});
