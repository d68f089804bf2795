import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { secureHeaders, sendAsset } from '../http/own-page';
import { ExplorerAssets } from './explorer-assets';
import { EXPLORER_PAGE } from './explorer-page';

/**
 * Only this origin: the page, its scripts and styles, and its requests to /graphql (HTTP and
 * WebSocket). `data:` for fonts and icons, which GraphiQL's stylesheet embeds.
 */
export const EXPLORER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** A GraphQL explorer (GraphiQL) at `/`, working offline: every asset comes from node_modules. */
@Controller()
export class ExplorerController {
  private readonly assets = new ExplorerAssets();

  @Get()
  page(@Res() res: Response): void {
    this.secure(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(EXPLORER_PAGE);
  }

  @Get('explorer/:file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    this.secure(res);
    sendAsset(res, this.assets.get(file), 'public, max-age=3600');
  }

  private secure(res: Response): void {
    secureHeaders(res, EXPLORER_CSP);
  }
}
