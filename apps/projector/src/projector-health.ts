import { Controller, Get, HttpStatus, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { HealthCheck } from '@lomo/platform';
import { ProjectorUnhealthyError, type ProjectionRunner } from '@lomo/read-models';
import { PROJECTION_RUNNER, PROJECTOR_HEALTH_CHECK } from './projector-tokens';

/** The projector's check in the platform's HealthCheck shape: details when up, throws when down. */
export function projectorHealthCheck(runner: ProjectionRunner): HealthCheck {
  return {
    name: 'projector',
    check: async () => {
      const health = runner.health();
      if (!health.healthy) throw new ProjectorUnhealthyError(health.reasons);
      return { projections: health.projections };
    },
  };
}

/**
 * GET /health/projector: the platform's /health lists a fixed set of checks, so the projector's
 * own is served here as well (200 up, 503 down, per-projection state and lag either way).
 */
@Controller('health')
export class ProjectorHealthController {
  constructor(
    @Inject(PROJECTION_RUNNER) private readonly runner: ProjectionRunner,
    @Inject(PROJECTOR_HEALTH_CHECK) private readonly check: HealthCheck,
  ) {}

  @Get('projector')
  async projector(@Res() res: Response): Promise<void> {
    try {
      res.status(HttpStatus.OK).json({ status: 'up', ...(await this.check.check()) });
    } catch (error) {
      res.status(HttpStatus.SERVICE_UNAVAILABLE).json({
        status: 'down',
        error: error instanceof Error ? error.message : String(error),
        projections: this.runner.status(),
      });
    }
  }
}
