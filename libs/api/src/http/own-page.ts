import type { Response } from 'express';

/** A file a page of the API serves from its own bundle (no CDN). */
export interface PageAsset {
  contentType: string;
  body: string | Buffer;
}

/** What every page of the API sends (the explorer, the inspector): its CSP and no sniffing or referrer. */
export function secureHeaders(res: Response, csp: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/** One of a page's assets, or a plain 404 for a name the page does not have. */
export function sendAsset(res: Response, asset: PageAsset | undefined, cacheControl: string): void {
  if (asset === undefined) {
    res.status(404).type('text/plain').send('Not found');
    return;
  }
  res.setHeader('Content-Type', asset.contentType);
  res.setHeader('Cache-Control', cacheControl);
  res.send(asset.body);
}
