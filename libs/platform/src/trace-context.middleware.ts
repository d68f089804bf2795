import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { traceContext } from '@lomo/observability';

const traceIdPattern = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Each HTTP request runs in a trace context; a valid client-sent x-correlation-id is kept. */
export function traceContextMiddleware(req: Request, res: Response, next: NextFunction): void {
  const sent = req.header('x-correlation-id');
  const correlationId = sent && traceIdPattern.test(sent) ? sent : randomUUID();
  res.setHeader('x-correlation-id', correlationId);
  traceContext.run({ correlationId, causationId: null }, () => next());
}
