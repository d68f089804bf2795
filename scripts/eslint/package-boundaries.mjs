// Local ESLint rules that keep the package layout honest (docs/architecture.md, "Packages"):
// - `package-boundaries`: a relative import never leaves its own package (an app under apps/<name>,
//   a library under libs/<name>); libraries are reached by their `@lomo/<name>` entry points only,
//   and apps never import one another. Files under test/ and bench/ may import an app's modules by
//   path (they test apps), but reach libraries by name too.
// - `no-test-code-in-production`: a production file (not a spec, not under a `testing/` folder,
//   not in libs/testing) imports nothing from `@lomo/testing`, `@lomo/<lib>/testing` or a path
//   under `testing/`.
// Paths are resolved against the linted file, so the rules see where an import lands, not how it
// is spelled.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** 'apps/api', 'libs/runtime', 'test', 'bench', 'scripts', or null outside the repository. */
function packageOf(absolute) {
  const rel = path.relative(root, absolute);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  if ((parts[0] === 'apps' || parts[0] === 'libs') && parts.length > 1) return `${parts[0]}/${parts[1]}`;
  return parts[0];
}

const isSpec = (file) => /\.(spec|int-spec|dist-spec)\.ts$/.test(file);
const underTesting = (relative) => relative.split(path.sep).includes('testing');

function isProductionFile(file) {
  const rel = path.relative(root, file);
  if (!(rel.startsWith(`apps${path.sep}`) || rel.startsWith(`libs${path.sep}`))) return false;
  if (rel.startsWith(`libs${path.sep}testing${path.sep}`)) return false;
  return !isSpec(rel) && !underTesting(rel);
}

/** Every module specifier in the file: imports, re-exports, dynamic imports, require and jest.mock. */
function visitSpecifiers(context, check) {
  const literal = (node) => (node && node.type === 'Literal' && typeof node.value === 'string' ? node : null);
  return {
    ImportDeclaration: (node) => check(node.source),
    ExportAllDeclaration: (node) => check(node.source),
    ExportNamedDeclaration: (node) => node.source && check(node.source),
    ImportExpression: (node) => literal(node.source) && check(node.source),
    CallExpression(node) {
      const callee = node.callee;
      const isRequire = callee.type === 'Identifier' && callee.name === 'require';
      const isJestMock =
        callee.type === 'MemberExpression' &&
        callee.object.type === 'Identifier' &&
        callee.object.name === 'jest' &&
        callee.property.type === 'Identifier' &&
        callee.property.name === 'mock';
      if ((isRequire || isJestMock) && literal(node.arguments[0])) check(node.arguments[0]);
    },
  };
}

const packageBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Relative imports stay inside their package; libraries are reached by @lomo names.' },
    schema: [],
    messages: {
      leavesPackage:
        "'{{spec}}' leaves {{from}} for {{to}}: import a library by its @lomo name (a test helper from @lomo/<lib>/testing).",
      crossApp: "'{{spec}}' imports {{to}} from {{from}}: apps are composition roots; move shared code into a library.",
      deepImport: "'{{spec}}' reaches into a library: use @lomo/<lib> or @lomo/<lib>/testing.",
      selfImport:
        "'{{spec}}' is this file's own library: import it by relative path (a self-import is a load-order cycle).",
    },
  },
  create(context) {
    const file = context.filename;
    const from = packageOf(file);
    return visitSpecifiers(context, (source) => {
      const spec = source.value;
      const own = /^@lomo\/([^/]+)$/.exec(spec);
      if (own && from === `libs/${own[1]}` && !isSpec(file)) {
        context.report({ node: source, messageId: 'selfImport', data: { spec } });
        return;
      }
      const deep = /^@lomo\/[^/]+\/(.+)$/.exec(spec);
      if (deep && deep[1] !== 'testing') {
        context.report({ node: source, messageId: 'deepImport', data: { spec } });
        return;
      }
      if (!spec.startsWith('.') || from === null) return;
      const to = packageOf(path.resolve(path.dirname(file), spec));
      if (to === null || to === from) return;
      if (to.startsWith('apps/')) {
        // test/ and bench/ drive apps; an app or a library never reaches into another app.
        if (from === 'test' || from === 'bench') return;
        context.report({ node: source, messageId: 'crossApp', data: { spec, from, to } });
        return;
      }
      if (to.startsWith('libs/'))
        context.report({ node: source, messageId: 'leavesPackage', data: { spec, from, to } });
    });
  },
};

const noTestCodeInProduction = {
  meta: {
    type: 'problem',
    docs: { description: 'Production files import no test code.' },
    schema: [],
    messages: {
      testImport: "'{{spec}}' is test code; production files (not specs, not under testing/) must not import it.",
    },
  },
  create(context) {
    const file = context.filename;
    if (!isProductionFile(file)) return {};
    return visitSpecifiers(context, (source) => {
      const spec = source.value;
      const testLib = spec === '@lomo/testing' || /^@lomo\/[^/]+\/testing$/.test(spec);
      const testPath =
        spec.startsWith('.') && underTesting(path.relative(root, path.resolve(path.dirname(file), spec)));
      if (testLib || testPath) context.report({ node: source, messageId: 'testImport', data: { spec } });
    });
  },
};

export default {
  rules: { 'package-boundaries': packageBoundaries, 'no-test-code-in-production': noTestCodeInProduction },
};
