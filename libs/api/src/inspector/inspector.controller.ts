import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { secureHeaders, sendAsset } from '../http/own-page';
import { inspectorAsset } from './inspector-assets';
import { INSPECTOR_PAGE } from './inspector-page';

/**
 * Only this origin: the page, its scripts and styles, and its requests to /graphql (HTTP and the
 * subscriptions' WebSocket). Stricter than the explorer's: no `data:` fonts or images needed.
 */
export const INSPECTOR_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The operators' web inspector at /inspector, next to the explorer: the page itself is public
 * (it holds no data); everything it shows comes from the operator GraphQL queries, which refuse
 * any token but an operator's.
 */
@Controller('inspector')
export class InspectorController {
  @Get()
  page(@Res() res: Response): void {
    this.secure(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(INSPECTOR_PAGE);
  }

  @Get(':file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    this.secure(res);
    sendAsset(res, inspectorAsset(file), 'no-cache');
  }

  private secure(res: Response): void {
    secureHeaders(res, INSPECTOR_CSP);
  }
}
