// The one list of @lomo/<lib> aliases, read by the build, the runtime hook and jest.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const libNames = () =>
  fs
    .readdirSync(path.join(root, 'libs'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(root, 'libs', d.name, 'src', 'index.ts')))
    .map((d) => d.name);

module.exports = { root, libNames };
