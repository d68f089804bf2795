// Compiles apps/ and libs/ into dist/ with SWC (type checking is `npm run typecheck`). Apps reach
// libraries by their @lomo names only, so dist/node_modules/@lomo/<lib> shims are all they need to
// resolve them without a loader; dist/apps/<app>/main.js is each app's entry point. Specs and
// `testing/` folders are left out: production code never loads test code (the lint rule
// lomo/no-test-code-in-production), and a dist that ran anyway proves it.
const fs = require('node:fs');
const path = require('node:path');
const { transformFileSync } = require('@swc/core');
const swcOptions = require('./swc-options.cjs');
const { root, libNames } = require('./lomo-libs.cjs');

const dist = path.join(root, 'dist');
fs.rmSync(dist, { recursive: true, force: true });

function compileDir(srcDir, outDir) {
  if (!fs.existsSync(srcDir)) return 0;
  let count = 0;
  for (const entry of fs.readdirSync(srcDir, { withFileTypes: true })) {
    const from = path.join(srcDir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'testing') continue;
      count += compileDir(from, path.join(outDir, entry.name));
    } else if (
      entry.name.endsWith('.ts') &&
      !/\.(spec|test|int-spec)\.ts$/.test(entry.name) &&
      !entry.name.endsWith('.d.ts')
    ) {
      const { code } = transformFileSync(from, swcOptions(from));
      fs.mkdirSync(outDir, { recursive: true });
      fs.writeFileSync(path.join(outDir, entry.name.replace(/\.ts$/, '.js')), code);
      count += 1;
    } else if (entry.name.endsWith('.json') || entry.name.endsWith('.html')) {
      fs.mkdirSync(outDir, { recursive: true });
      fs.copyFileSync(from, path.join(outDir, entry.name));
    }
  }
  return count;
}

let files = 0;
for (const app of fs.readdirSync(path.join(root, 'apps'))) {
  files += compileDir(path.join(root, 'apps', app, 'src'), path.join(dist, 'apps', app, 'src'));
  if (fs.existsSync(path.join(root, 'apps', app, 'src', 'main.ts'))) {
    fs.writeFileSync(path.join(dist, 'apps', app, 'main.js'), "require('./src/main.js');\n");
  }
}
for (const lib of libNames().filter((name) => name !== 'testing')) {
  files += compileDir(path.join(root, 'libs', lib, 'src'), path.join(dist, 'libs', lib, 'src'));
  const shimDir = path.join(dist, 'node_modules', '@lomo', lib);
  fs.mkdirSync(shimDir, { recursive: true });
  fs.writeFileSync(path.join(shimDir, 'index.js'), `module.exports = require('../../../libs/${lib}/src/index.js');\n`);
}
console.log(JSON.stringify({ msg: 'build finished', files, out: 'dist' }));
