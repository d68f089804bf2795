/**
 * What a command prints. With `--json` every result is one JSON line on stdout (scripts read
 * them), human text is suppressed; otherwise results are tables or indented text. Diagnostics and
 * progress always go to stderr, so stdout stays clean in both modes.
 */
export interface TableSpec {
  columns: string[];
  rows: Array<Array<string | number | boolean | null | undefined>>;
}

export interface CliOutput {
  readonly json: boolean;
  /** One result: a JSON line in `--json`, the table (or the value, indented) otherwise. */
  result(value: unknown, table?: TableSpec): void;
  /** Human text; nothing in `--json`. */
  line(text: string): void;
}

export interface Writers {
  out(text: string): void;
  err(text: string): void;
}

export const consoleWriters: Writers = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

export function createOutput(json: boolean, writers: Writers = consoleWriters): CliOutput {
  return {
    json,
    result(value, table) {
      if (json) writers.out(JSON.stringify(value));
      else if (table !== undefined) writers.out(renderTable(table));
      else writers.out(typeof value === 'string' ? value : JSON.stringify(value, null, 2));
    },
    line(text) {
      if (!json) writers.out(text);
    },
  };
}

const MAX_CELL = 80;

const cell = (value: string | number | boolean | null | undefined): string => {
  const text = value === null || value === undefined ? '-' : String(value).replace(/\s+/g, ' ');
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
};

/** A plain aligned table: header, rule, rows (no colours: it is also read from logs and CI). */
export function renderTable({ columns, rows }: TableSpec): string {
  const cells = rows.map((row) => columns.map((_, i) => cell(row[i])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)));
  const format = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const lines = [format(columns), format(widths.map((w) => '-'.repeat(w))), ...cells.map(format)];
  if (rows.length === 0) lines.push('(none)');
  return lines.join('\n');
}
