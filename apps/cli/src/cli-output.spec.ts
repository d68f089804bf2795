import { createOutput, renderTable } from './cli-output';

describe('CLI output', () => {
  it('prints one JSON line per result in --json and no human text', () => {
    const out: string[] = [];
    const output = createOutput(true, { out: (l) => out.push(l), err: () => undefined });
    output.line('hello');
    output.result({ a: 1 }, { columns: ['a'], rows: [[1]] });
    expect(out).toEqual(['{"a":1}']);
  });

  it('aligns a table, shortens long cells, shows missing values as "-" and an empty table as (none)', () => {
    const text = renderTable({
      columns: ['name', 'n'],
      rows: [
        ['tasks', 3],
        ['x'.repeat(100), null],
      ],
    });
    const lines = text.split('\n');
    expect(lines[0]).toBe(`name${' '.repeat(76)}  n`);
    expect(lines[2]).toBe(`tasks${' '.repeat(75)}  3`);
    expect(lines[3]).toBe(`${'x'.repeat(79)}…  -`);
    expect(renderTable({ columns: ['a'], rows: [] }).split('\n')[2]).toBe('(none)');
  });
});
