import nodemailer from 'nodemailer';
import type { GatewayConfig } from './config.ts';

export interface ContactMessage {
  name: string;
  email: string;
  message: string;
}

/**
 * Sends contact messages on by e-mail when SMTP is configured (SMTP_URL, CONTACT_TO); they are stored
 * either way, so a mail server that is down loses nothing.
 */
export function contactMailer(smtp: GatewayConfig['smtp']) {
  if (!smtp) return undefined;
  const transport = nodemailer.createTransport(smtp.url);
  return async (m: ContactMessage): Promise<void> => {
    await transport.sendMail({
      from: smtp.from,
      to: smtp.to,
      replyTo: { name: m.name, address: m.email },
      subject: `Quire contact form: ${m.name.replace(/[\r\n]+/g, ' ').slice(0, 100)}`,
      text: `${m.name} <${m.email}> wrote:\n\n${m.message}\n`,
    });
  };
}
