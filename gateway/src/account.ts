import express, { type NextFunction, type Request, type Response } from 'express';
import { ToolError } from '@quire/base';
import { authConfigJson, userOf } from './auth.ts';
import type { FirebaseSettings } from './config.ts';
import { userHistory, type Db } from './db.ts';

/** Sign-in's public settings and the signed-in user's own history (docs/api.md, "Accounts"). */
export function accountRoutes(settings: FirebaseSettings, db: Db) {
  const router = express.Router();

  router.get('/api/v1/auth/config', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(authConfigJson(settings));
  });

  router.get('/api/v1/me/history', (_req: Request, res: Response, next: NextFunction) => {
    const user = userOf(res);
    if (!user) return next(new ToolError('invalid_token', 'Please sign in to see your history.'));
    userHistory(db, user.uid).then((history) => {
      res.setHeader('Cache-Control', 'private, no-store');
      res.json({ history });
    }, next);
  });

  return router;
}
