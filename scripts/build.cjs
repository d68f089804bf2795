// Compiles apps/ and libs/ into dist/ with SWC (type checking is `npm run typecheck`). Apps reach
// libraries by their @lomo names only, so dist/node_modules/@lomo/<lib> shims are all they need to
// resolve them without a loader; dist/apps/<app>/main.js is each app's entry point. Specs and
// `testing/` folders are left out: production code never loads test code (the lint rule
// lomo/no-test-code-in-production), and a dist that ran anyway proves it.
//
// Tests that start the built apps call this from parallel jest workers while another worker's app
// runs from dist/. So the build is skipped when dist/ was built from the same sources (a stamp of
// every input's path, size and mtime), and otherwise written beside dist/ and swapped in with two
// renames, never emptied in place. `--force` builds even when up to date.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { transformFileSync } = require('@swc/core');
const swcOptions = require('./swc-options.cjs');
const { root, libNames } = require('./lomo-libs.cjs');

const dist = path.join(root, 'dist');
const STAMP = '.build-stamp';

const isSource = (name) => name.endsWith('.ts') && !/\.(spec|test|int-spec)\.ts$/.test(name) && !name.endsWith('.d.ts');
const isCopied = (name) => name.endsWith('.json') || name.endsWith('.html');

/** The (source, output) directory pairs: every app, every lib but the test-only one. */
function units(outRoot) {
  const pairs = [];
  for (const app of fs.readdirSync(path.join(root, 'apps')))
    pairs.push({
      kind: 'app',
      name: app,
      src: path.join(root, 'apps', app, 'src'),
      out: path.join(outRoot, 'apps', app, 'src'),
    });
  for (const lib of libNames().filter((name) => name !== 'testing'))
    pairs.push({
      kind: 'lib',
      name: lib,
      src: path.join(root, 'libs', lib, 'src'),
      out: path.join(outRoot, 'libs', lib, 'src'),
    });
  return pairs;
}

/** Every input file under srcDir, as the compile walk visits them. */
function inputs(srcDir, out = []) {
  if (!fs.existsSync(srcDir)) return out;
  for (const entry of fs.readdirSync(srcDir, { withFileTypes: true })) {
    const from = path.join(srcDir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'testing') inputs(from, out);
    } else if (isSource(entry.name) || isCopied(entry.name)) out.push(from);
  }
  return out;
}

function stampOf() {
  const hash = crypto.createHash('sha256');
  const files = [
    __filename,
    path.join(__dirname, 'swc-options.cjs'),
    path.join(__dirname, 'lomo-libs.cjs'),
    ...units(dist).flatMap((u) => inputs(u.src)),
  ];
  for (const file of files.sort()) {
    const stat = fs.statSync(file);
    hash.update(`${path.relative(root, file)}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const readStamp = (dir) => {
  try {
    return fs.readFileSync(path.join(dir, STAMP), 'utf8');
  } catch {
    return undefined;
  }
};

function compileDir(srcDir, outDir) {
  let count = 0;
  for (const from of inputs(srcDir)) {
    const to = path.join(outDir, path.relative(srcDir, from));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    if (isSource(from)) {
      fs.writeFileSync(to.replace(/\.ts$/, '.js'), transformFileSync(from, swcOptions(from)).code);
      count += 1;
    } else fs.copyFileSync(from, to);
  }
  return count;
}

function build(outRoot) {
  let files = 0;
  for (const unit of units(outRoot)) {
    files += compileDir(unit.src, unit.out);
    if (unit.kind === 'app' && fs.existsSync(path.join(unit.src, 'main.ts'))) {
      fs.writeFileSync(path.join(outRoot, 'apps', unit.name, 'main.js'), "require('./src/main.js');\n");
    }
    if (unit.kind === 'lib') {
      const shimDir = path.join(outRoot, 'node_modules', '@lomo', unit.name);
      fs.mkdirSync(shimDir, { recursive: true });
      fs.writeFileSync(
        path.join(shimDir, 'index.js'),
        `module.exports = require('../../../libs/${unit.name}/src/index.js');\n`,
      );
    }
  }
  return files;
}

const stamp = stampOf();
if (!process.argv.includes('--force') && readStamp(dist) === stamp) {
  console.log(JSON.stringify({ msg: 'build up to date', out: 'dist' }));
  process.exit(0);
}
const fresh = `${dist}.building-${process.pid}`;
fs.rmSync(fresh, { recursive: true, force: true });
const files = build(fresh);
fs.writeFileSync(path.join(fresh, STAMP), stamp);
if (readStamp(dist) === stamp) {
  // Another build of the same sources finished meanwhile: keep it (an app may run from it).
  fs.rmSync(fresh, { recursive: true, force: true });
} else {
  const old = `${dist}.old-${process.pid}`;
  if (fs.existsSync(dist)) fs.renameSync(dist, old);
  fs.renameSync(fresh, dist);
  fs.rmSync(old, { recursive: true, force: true });
}
console.log(JSON.stringify({ msg: 'build finished', files, out: 'dist' }));
