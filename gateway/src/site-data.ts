import { randomBytes } from 'node:crypto';
import { ToolError, type Logger } from '@quire/base';
import express, { type Request, type Response, type NextFunction, type RequestHandler } from 'express';
import { z } from 'zod';
import { saveContactMessage, subscribe, unsubscribe, type Db } from './db.ts';
import type { ContactMessage } from './mail.ts';

const email = z.string().trim().toLowerCase().max(320).email();
const contactForm = z.object({
  name: z.string().trim().min(1).max(200),
  email,
  message: z.string().trim().min(1).max(5000),
  /** The form's hidden field: people leave it empty, robots fill it in. */
  website: z.string().max(500).optional(),
});
const newsletterForm = z.object({ email });

/** Validates a JSON body, answering the contract's `invalid_option` naming the first bad field. */
function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const field = String(result.error.issues[0]?.path[0] ?? 'body');
  throw new ToolError('invalid_option', `The field "${field}" is missing or not valid.`);
}

const wrap =
  (handler: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req, res, next: NextFunction) =>
    void handler(req, res).catch(next);

/** What the site shows of the server's settings, so that its copy states the limits really enforced. */
export interface SiteSettings {
  uploadLimitMb: number;
  resultTtlSeconds: number;
}

/** The site's settings, the contact form and the newsletter: small JSON calls on the site's database. */
export function siteDataRoutes(
  db: Db,
  limiter: RequestHandler,
  settings: SiteSettings,
  options: { mail?: (m: ContactMessage) => Promise<void>; log?: Logger } = {},
) {
  const router = express.Router();
  router.get('/api/v1/settings', (_req, res) => {
    res.json(settings);
  });

  const json = express.json({ limit: '32kb' });

  router.post(
    '/api/v1/contact',
    limiter,
    json,
    wrap(async (req, res) => {
      const form = parse(contactForm, req.body);
      // A robot gets the same answer as a person, and nothing is kept.
      if (!form.website) {
        const message = { name: form.name, email: form.email, message: form.message };
        await saveContactMessage(db, message);
        // Stored first: a mail server that fails loses nothing, and the visitor still gets their answer.
        await options
          .mail?.(message)
          .catch((err: unknown) => options.log?.error('contact mail failed', { err: String(err) }));
      }
      res.status(201).json({ ok: true });
    }),
  );

  router.post(
    '/api/v1/newsletter',
    limiter,
    json,
    wrap(async (req, res) => {
      const form = parse(newsletterForm, req.body);
      const added = await subscribe(db, form.email, randomBytes(16).toString('hex'));
      res.status(added ? 201 : 200).json({ ok: true });
    }),
  );
  // The link in every newsletter: the token alone says which address, and nothing else is needed.
  router.get(
    '/api/v1/newsletter/unsubscribe',
    limiter,
    wrap(async (req, res) => {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      if (!/^[0-9a-f]{32}$/.test(token) || !(await unsubscribe(db, token))) throw new ToolError('not_found');
      res.json({ unsubscribed: true });
    }),
  );
  return router;
}
