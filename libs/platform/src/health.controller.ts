import { Controller, Get, Header, HttpStatus, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { METRICS, Metrics } from '@lomo/observability';
import { HealthRegistry, type HealthCheck } from './health-check';

/**
 * Three views of the same checks, for three readers:
 * - `/health/live` (liveness probe): the process answers HTTP. No dependency is consulted, so a
 *   database or broker outage never gets healthy pods restarted (a restart cannot fix it).
 * - `/health/ready` (readiness probe): this process's own connections work (the checks not marked
 *   `readiness: false`); failing takes the pod out of its Service until they recover.
 * - `/health`: every check, for people and dashboards; 503 when any fails.
 */
@Controller()
export class HealthController {
  constructor(
    private readonly registry: HealthRegistry,
    @Inject(METRICS) private readonly metrics: Metrics,
  ) {}

  /** 200 when every check passes, 503 otherwise; each check reports its own details. */
  @Get('health')
  async health(@Res() res: Response): Promise<void> {
    await respond(res, this.registry.all());
  }

  @Get('health/live')
  @Header('Cache-Control', 'no-store')
  live(@Res() res: Response): void {
    res.status(HttpStatus.OK).json({ status: 'up' });
  }

  @Get('health/ready')
  @Header('Cache-Control', 'no-store')
  async ready(@Res() res: Response): Promise<void> {
    await respond(res, this.registry.readiness());
  }

  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async prometheus(@Res() res: Response): Promise<void> {
    res.setHeader('Content-Type', this.metrics.contentType);
    res.send(await this.metrics.render());
  }
}

async function respond(res: Response, checks: HealthCheck[]): Promise<void> {
  const results = await Promise.all(
    checks.map(async (c) => {
      try {
        return [c.name, { status: 'up', ...(await c.check()) }] as const;
      } catch (e) {
        return [c.name, { status: 'down', error: e instanceof Error ? e.message : String(e) }] as const;
      }
    }),
  );
  const up = results.every(([, r]) => r.status === 'up');
  res
    .status(up ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
    .json({ status: up ? 'up' : 'down', checks: Object.fromEntries(results) });
}
