import { Controller, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CallbackRejectedError, GenerationService } from '@lomo/generation';
import { LOGGER, type Logger } from '@lomo/observability';
import { GENERATION_SERVICE } from './generation-tokens';

/** Larger bodies are refused unread: no provider's callback comes near it. */
export const CALLBACK_MAX_BYTES = 256 * 1024;

/** The body exactly as sent: signatures are over these bytes, never over re-serialized JSON. */
async function rawBodyOf(req: Request): Promise<Buffer> {
  const kept = (req as Request & { rawBody?: unknown }).rawBody;
  if (Buffer.isBuffer(kept)) return kept;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > CALLBACK_MAX_BYTES)
      throw new CallbackRejectedError('CALLBACK_MALFORMED', `The body is larger than ${CALLBACK_MAX_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * `POST /callbacks/generation/:provider`, served by the generation app (and so by standalone):
 * the provider's adapter checks the signature over the raw body and its timestamp, the service
 * refuses a replayed event id and an unknown job. Every refusal is a 4xx with a typed error and
 * appends nothing; 5xx means "try again" (the store was unavailable). The JSON body parser skips
 * this path (libs/platform/src/run-app.ts).
 */
@Controller('callbacks/generation')
export class GenerationCallbackController {
  constructor(
    @Inject(GENERATION_SERVICE) private readonly service: GenerationService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Post(':provider')
  @HttpCode(200)
  async receive(@Param('provider') provider: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    try {
      const body = await rawBodyOf(req);
      const { jobId, appended } = await this.service.receiveCallback(provider, req.headers, body);
      res.status(200).json({ jobId, appended });
    } catch (error) {
      if (error instanceof CallbackRejectedError) {
        this.logger.warn(
          { component: 'generation', provider: provider.slice(0, 64), code: error.code },
          'generation callback refused',
        );
        res.status(error.httpStatus).json({ error: { code: error.code, message: error.message } });
        return;
      }
      this.logger.error(
        { component: 'generation', provider: provider.slice(0, 64), error: (error as Error).message },
        'generation callback failed',
      );
      res.status(503).json({ error: { code: 'GENERATION_UNAVAILABLE', message: 'Try again later' } });
    }
  }
}
