import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HealthRegistry, type HealthCheck } from '@lomo/platform';
import { ProjectorUnhealthyError, type ProjectionRunner, PROJECTOR_HEALTH_CHECK } from '@lomo/read-models';

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

/** Adds the projector's check to the process's /health (503 when a projection failed or lags). */
@Injectable()
export class ProjectorHealthRegistration implements OnModuleInit {
  constructor(
    private readonly health: HealthRegistry,
    @Inject(PROJECTOR_HEALTH_CHECK) private readonly check: HealthCheck,
  ) {}

  onModuleInit(): void {
    this.health.register(this.check);
  }
}
