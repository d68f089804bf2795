import { Body, Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { authenticate, type ApiTokens } from '@lomo/auth';
import { ApiError, ApiErrorCodes, ClockBackwardsError, LomoError } from '@lomo/contracts';
import { LOGGER, type Logger } from '@lomo/observability';
import { TEST_CONTROL_STATE, type TestControlState } from '@lomo/platform';
import { API_TOKENS } from '../api-di-tokens';

export const TEST_CONTROL_PATH = '/test-control';

const clockBody = z.union([
  z.strictObject({
    advanceMs: z
      .number()
      .int()
      .min(0)
      .max(10 * 365 * 86_400_000),
  }),
  z.strictObject({ setTo: z.iso.datetime({ offset: true }) }),
]);
const faultsBody = z.strictObject({
  duplicateCallbacks: z.boolean().optional(),
  lostCallbacks: z.boolean().optional(),
  lostWakeups: z.boolean().optional(),
  /** Armed: the process SIGKILLs itself right after its next media job order is recorded (once). */
  crashAfterMediaOrder: z.boolean().optional(),
});

/** A refused test-control request: a stable code the harness matches (BAD_REQUEST, CLOCK_BACKWARDS), status 400. */
export class TestControlRefusal extends LomoError {
  readonly retriable = false;
  constructor(
    readonly code: string,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, details);
  }
}

const issuesOf = (error: z.ZodError) => ({
  issues: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
});

/**
 * The drills' test-control surface over plain HTTP (libs/platform/src/test-control/README.md),
 * mounted only when LOMO_TEST_CONTROL=on (otherwise the paths are 404 like any unknown one), and
 * for operator tokens only: it moves this process's clock and switches faults.
 */
@Controller(TEST_CONTROL_PATH)
export class TestControlController {
  private readonly logger: Logger;

  constructor(
    @Inject(API_TOKENS) private readonly tokens: ApiTokens,
    @Inject(TEST_CONTROL_STATE) private readonly state: TestControlState,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'test-control' });
  }

  @Get()
  read(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answer(req, res, async () => this.state.snapshot());
  }

  @Post('clock')
  moveClock(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    return this.answer(req, res, async () => {
      const parsed = clockBody.safeParse(body);
      if (!parsed.success)
        throw new TestControlRefusal(
          ApiErrorCodes.BAD_REQUEST,
          'The body is {"advanceMs": n} (a whole number ≥ 0) or {"setTo": "<ISO 8601 instant>"}',
          issuesOf(parsed.error),
        );
      const before = this.state.clock.now().toISOString();
      try {
        const now =
          'advanceMs' in parsed.data
            ? this.state.clock.advance(parsed.data.advanceMs)
            : this.state.clock.set(new Date(parsed.data.setTo));
        this.logger.info({ before, now: now.toISOString(), offsetMs: this.state.clock.offsetMs }, 'clock moved');
        return { now: now.toISOString() };
      } catch (error) {
        if (error instanceof ClockBackwardsError)
          throw new TestControlRefusal(error.code, error.message, { ...error.details });
        throw error;
      }
    });
  }

  @Post('faults')
  setFaults(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    return this.answer(req, res, async () => {
      const parsed = faultsBody.safeParse(body);
      if (!parsed.success)
        throw new TestControlRefusal(
          ApiErrorCodes.BAD_REQUEST,
          'The body names faults as booleans: duplicateCallbacks, lostCallbacks, lostWakeups, crashAfterMediaOrder',
          issuesOf(parsed.error),
        );
      const faults = await this.state.setFaults(parsed.data);
      this.logger.info({ faults }, 'faults switched');
      return this.state.snapshot();
    });
  }

  /** Operator tokens only; refusals as `{ error: { code, message, ...details } }` with their status. */
  private async answer(req: Request, res: Response, body: () => Promise<unknown>): Promise<void> {
    try {
      const caller = await authenticate(req.header('authorization'), this.tokens);
      if (caller.kind !== 'operator')
        throw new ApiError(
          ApiErrorCodes.FORBIDDEN,
          'Only an operator token uses test control',
          {},
          { httpStatus: 403 },
        );
      res.status(200).json(await body());
    } catch (error) {
      if (error instanceof ApiError || error instanceof TestControlRefusal) {
        if (error.code === ApiErrorCodes.UNAUTHENTICATED) res.setHeader('WWW-Authenticate', 'Bearer');
        const status = error instanceof ApiError ? (error.httpStatus ?? 400) : 400;
        res.status(status).json({ error: { code: error.code, message: error.message, ...error.details } });
        return;
      }
      this.logger.error(
        { error: error instanceof Error ? (error.stack ?? error.message) : String(error) },
        'test control request failed',
      );
      res.status(500).json({ error: { code: ApiErrorCodes.INTERNAL_SERVER_ERROR, message: 'Internal server error' } });
    }
  }
}
