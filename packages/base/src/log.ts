import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import winston from 'winston';

const context = new AsyncLocalStorage<{ requestId: string }>();

function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}

const withRequestId = winston.format((info) => {
  const requestId = currentRequestId();
  if (requestId && info.requestId === undefined) info.requestId = requestId;
  return info;
});

export type Logger = winston.Logger;

/** JSON lines, one per event, carrying the request id of the request they belong to. */
export function createLogger(service: string): Logger {
  return winston.createLogger({
    level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'warn' : 'info'),
    defaultMeta: { service },
    format: winston.format.combine(withRequestId(), winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}

const safeId = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes `X-Request-Id` from the request when it is sane, else makes one, and echoes it. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const given = req.get('x-request-id');
  const requestId = given && safeId.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', requestId);
  res.locals.requestId = requestId;
  context.run({ requestId }, next);
}
