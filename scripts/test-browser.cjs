// `npm run test:browser`: the suites that drive a real browser (test/browser). They need Debian's
// chromium; without it this says so, and how to install it, instead of failing inside a test.
const { existsSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const chromium = process.env.LOMO_CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(
    `test:browser: no Chromium at ${chromium}.\n` +
      "  Install Debian's chromium:  apt-get update && apt-get install -y chromium\n" +
      '  or point LOMO_CHROMIUM at a Chromium binary, then run `npm run test:browser` again.',
  );
  process.exit(1);
}
const jest = path.join(__dirname, '..', 'node_modules', 'jest', 'bin', 'jest.js');
const run = spawnSync(process.execPath, [jest, '--selectProjects', 'browser', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
