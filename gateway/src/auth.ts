import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { getApps, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { ToolError } from '@quire/base';
import type { FirebaseSettings } from './config.ts';

/** Who made a call: a Firebase user, known by the ID token the call carried. */
export interface SignedInUser {
  uid: string;
  email: string | null;
}

/**
 * The Firebase app that verifies ID tokens for a project. One per project, made once: firebase-admin
 * refuses a second app of the same name. With FIREBASE_AUTH_EMULATOR_HOST in the environment,
 * firebase-admin asks the emulator instead of Google and accepts its unsigned tokens (config.ts
 * refuses that setting in production).
 */
function firebaseApp(projectId: string): App {
  const name = `quire-${projectId}`;
  return getApps().find((a) => a.name === name) ?? initializeApp({ projectId }, name);
}

/** What firebase-admin reports about the token itself (as opposed to a failure to check it). */
const tokenProblems = new Set([
  'auth/argument-error',
  'auth/invalid-argument',
  'auth/invalid-id-token',
  'auth/id-token-expired',
  'auth/id-token-revoked',
  'auth/user-disabled',
  'auth/user-not-found',
]);

/** Checks an ID token; a bad or expired one is `invalid_token`, a check that cannot be made `not_available`. */
export async function verifyToken(settings: FirebaseSettings, token: string): Promise<SignedInUser> {
  try {
    const decoded = await getAuth(firebaseApp(settings.projectId)).verifyIdToken(token);
    return { uid: decoded.uid, email: decoded.email ?? null };
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (tokenProblems.has(code)) throw new ToolError('invalid_token', undefined, { cause: err });
    throw new ToolError('not_available', 'Sign-in cannot be checked right now. Please try again later.', {
      cause: err,
    });
  }
}

/**
 * Identifies the caller on every request: `Authorization: Bearer <Firebase ID token>` makes
 * `res.locals.user`; no header is an anonymous call; a bad or expired token is `401 invalid_token`.
 */
export function authMiddleware(settings: FirebaseSettings): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.get('authorization');
    if (!header) return next();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) return next(new ToolError('invalid_token'));
    verifyToken(settings, match[1]!).then((user) => {
      res.locals.user = user;
      next();
    }, next);
  };
}

/** The caller, when signed in. */
export function userOf(res: Response): SignedInUser | undefined {
  return res.locals.user as SignedInUser | undefined;
}

/** The web config the site reads at run time, so that one build serves every deployment. */
export function authConfigJson(settings: FirebaseSettings) {
  const emulatorUrl = settings.emulatorHost ? `http://${settings.emulatorHost}` : null;
  return {
    enabled: Boolean(settings.apiKey || emulatorUrl),
    apiKey: emulatorUrl ? 'demo-key' : settings.apiKey,
    authDomain: settings.authDomain,
    projectId: settings.projectId,
    emulatorUrl,
  };
}
