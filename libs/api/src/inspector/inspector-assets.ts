import { INSPECTOR_CLIENT_SCRIPT } from './inspector-client-script';
import { INSPECTOR_CSS } from './inspector-page';
import { INSPECTOR_SCRIPT } from './inspector-script';

export interface InspectorAsset {
  contentType: string;
  body: Buffer;
}

const script = (text: string): InspectorAsset => ({
  contentType: 'text/javascript; charset=utf-8',
  body: Buffer.from(text, 'utf8'),
});

/**
 * The inspector's assets by file name: all written in this folder (no library, nothing from a
 * CDN); any other name is undefined, so nothing else can be fetched through the route.
 */
const ASSETS: ReadonlyMap<string, InspectorAsset> = new Map([
  ['client.js', script(INSPECTOR_CLIENT_SCRIPT)],
  ['inspector.js', script(INSPECTOR_SCRIPT)],
  ['inspector.css', { contentType: 'text/css; charset=utf-8', body: Buffer.from(INSPECTOR_CSS, 'utf8') }],
]);

export const inspectorAsset = (name: string): InspectorAsset | undefined => ASSETS.get(name);
