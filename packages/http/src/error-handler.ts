import type { NextFunction, Request, Response } from 'express';
import { toToolError, type Logger, type ToolError } from '@quire/base';

/** Contract errors as JSON; the cause goes to the log with the request id, never to the client. */
export function errorHandler(log: Logger) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const error = toToolError(err);
    if (error.status >= 500 || error.cause) {
      log.log(error.code === 'internal' ? 'error' : 'warn', error.message, {
        code: error.code,
        cause: error.cause instanceof Error ? (error.cause.stack ?? error.cause.message) : String(error.cause ?? ''),
      });
    }
    if (res.headersSent) {
      // A result sent ahead of its verdict ends with the error as its verdict (see verdictTrailer);
      // any other answer under way is cut off, so that it is never taken whole.
      const endWith = res.locals.endWith as ((error: ToolError) => void) | undefined;
      if (endWith) endWith(error);
      else res.destroy();
      return;
    }
    res.set(error.headers).status(error.status).json(error.toBody());
  };
}
