// Runs TypeScript sources directly (child processes in tests, benches, scripts):
// compiles .ts with SWC on require and resolves @lomo/<lib> to libs/<lib>/src.
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');
const swcOptions = require('./swc-options.cjs');
const { root } = require('./lomo-libs.cjs');

const originalResolve = Module._resolveFilename;
Module._resolveFilename = function resolveLomo(request, ...rest) {
  const m = /^@lomo\/([^/]+)(\/.*)?$/.exec(request);
  if (m) {
    request = path.join(root, 'libs', m[1], 'src', m[2] ?? 'index');
  }
  return originalResolve.call(this, request, ...rest);
};

Module._extensions['.ts'] = function compileTs(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = transformSync(source, swcOptions(filename));
  module._compile(code, filename);
};
require('reflect-metadata');
