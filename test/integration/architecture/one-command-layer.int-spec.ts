import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { repoRoot } from './support/run-eslint';

// Every production write to the event store goes through the command layer
// (libs/command-handling: handleCommand, AggregateStream.append). Only that layer, the event-store
// adapters themselves and the relay may call `append` on the EventStore port. The check resolves
// each `x.append(...)` call with the type checker, so it sees what is called, not how it is named.
const allowed = ['libs/command-handling/', 'libs/eventstore/', 'libs/bus/src/relay/'];

const isProduction = (rel: string) =>
  !/\.(spec|int-spec|dist-spec)\.ts$/.test(rel) &&
  !rel.split('/').includes('testing') &&
  !rel.startsWith('libs/testing/');

function productionFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return productionFiles(file);
    const rel = path.relative(repoRoot, file);
    return file.endsWith('.ts') && isProduction(rel) ? [file] : [];
  });
}

function program(files: string[]): ts.Program {
  const configFile = ts.readConfigFile(path.join(repoRoot, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, repoRoot);
  return ts.createProgram(files, { ...parsed.options, noEmit: true });
}

/** `x.append(...)` calls that resolve to the EventStore port's append (the port or an adapter). */
function eventStoreAppends(files: string[]): string[] {
  const prog = program(files);
  const checker = prog.getTypeChecker();
  const port = path.join(repoRoot, 'libs/eventstore/src/event-store.port.ts');
  const storeType = (() => {
    const source = prog.getSourceFile(port);
    const decl = source?.statements.find(
      (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'EventStore',
    );
    if (decl === undefined) throw new Error('EventStore interface not found in its port file');
    return checker.getTypeAtLocation(decl);
  })();
  const found: string[] = [];
  for (const file of files) {
    const source = prog.getSourceFile(file);
    if (source === undefined) continue;
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'append'
      ) {
        const receiver = checker.getTypeAtLocation(node.expression.expression);
        if (checker.isTypeAssignableTo(receiver, storeType)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          found.push(`${path.relative(repoRoot, file)}:${line + 1}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('one command layer', () => {
  const files = ['apps', 'libs'].flatMap((dir) => productionFiles(path.join(repoRoot, dir)));

  it('no production file outside the command layer, the event-store adapters and the relay appends to the EventStore port', () => {
    const outside = eventStoreAppends(files).filter((at) => !allowed.some((prefix) => at.startsWith(prefix)));
    expect(outside).toEqual([]);
  });

  it('the check bites: it finds the command layer’s own appends, and a planted one elsewhere', () => {
    const found = eventStoreAppends(files);
    expect(found.some((at) => at.startsWith('libs/command-handling/src/aggregate-stream.ts'))).toBe(true);
    const planted = path.join(repoRoot, 'test/integration/architecture/fixtures/planted-append.ts');
    expect(eventStoreAppends([planted])).toEqual([expect.stringMatching(/planted-append\.ts:\d+$/)]);
  });
});
