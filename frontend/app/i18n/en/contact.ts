import { addEnglish } from '../dictionary.ts';

/** The contact page’s English copy. It loads with the pages that show it, so that other pages never carry it. */
export const contact = addEnglish('contact', {
  title: 'Contact',
  description: 'Questions, bug reports or ideas: write to the Quire team.',
  name: 'Name',
  email: 'E-mail',
  message: 'Message',
  send: 'Send',
  sending: 'Sending…',
  thanks: 'Thank you! Your message has been sent. We will reply by e-mail.',
  failed: 'Your message could not be sent. Please try again.',
});
