import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EXPLORER_CSS } from './explorer-page';
import { EXPLORER_SCRIPT } from './explorer-script';

export interface ExplorerAsset {
  contentType: string;
  body: Buffer;
}

const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** Files the explorer page loads, all from node_modules: nothing comes from a CDN. */
const files: Record<string, { path: () => string; contentType: string }> = {
  'graphiql.min.js': {
    path: () => join(packageDir('graphiql'), 'graphiql.min.js'),
    contentType: 'text/javascript; charset=utf-8',
  },
  'graphiql.min.css': {
    path: () => join(packageDir('graphiql'), 'graphiql.min.css'),
    contentType: 'text/css; charset=utf-8',
  },
  'react.production.min.js': {
    path: () => join(packageDir('react'), 'umd', 'react.production.min.js'),
    contentType: 'text/javascript; charset=utf-8',
  },
  'react-dom.production.min.js': {
    path: () => join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'),
    contentType: 'text/javascript; charset=utf-8',
  },
};

/**
 * The explorer's assets by file name, read once on first use (GraphiQL's bundle is a few MB and
 * never changes while the process runs); undefined for any other name, so nothing else under
 * node_modules can be fetched through it.
 */
export class ExplorerAssets {
  private readonly cache = new Map<string, ExplorerAsset>();

  get(name: string): ExplorerAsset | undefined {
    const cached = this.cache.get(name);
    if (cached !== undefined) return cached;
    const asset = this.load(name);
    if (asset !== undefined) this.cache.set(name, asset);
    return asset;
  }

  private load(name: string): ExplorerAsset | undefined {
    if (name === 'explorer.js') {
      return { contentType: 'text/javascript; charset=utf-8', body: Buffer.from(EXPLORER_SCRIPT, 'utf8') };
    }
    if (name === 'explorer.css')
      return { contentType: 'text/css; charset=utf-8', body: Buffer.from(EXPLORER_CSS, 'utf8') };
    const file = Object.hasOwn(files, name) ? files[name] : undefined;
    return file === undefined ? undefined : { contentType: file.contentType, body: readFileSync(file.path()) };
  }
}
