import { Controller, Get, Header, HttpStatus, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { METRICS, Metrics } from '@lomo/observability';
import { HealthRegistry } from './health-check';

@Controller()
export class HealthController {
  constructor(
    private readonly registry: HealthRegistry,
    @Inject(METRICS) private readonly metrics: Metrics,
  ) {}

  /** 200 when every check passes, 503 otherwise; each check reports its own details. */
  @Get('health')
  async health(@Res() res: Response): Promise<void> {
    const results = await Promise.all(
      this.registry.all().map(async (c) => {
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

  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async prometheus(@Res() res: Response): Promise<void> {
    res.setHeader('Content-Type', this.metrics.contentType);
    res.send(await this.metrics.render());
  }
}
