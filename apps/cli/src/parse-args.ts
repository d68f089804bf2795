/** `--name value` options and positional words of a command line; unknown options are refused. */
export interface ParsedArgs {
  positional: string[];
  options: Record<string, string | true>;
}

export class UsageError extends Error {
  readonly code = 'USAGE';
}

export function parseArgs(
  argv: readonly string[],
  known: readonly string[],
  flags: readonly string[] = [],
): ParsedArgs {
  const positional: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i];
    if (!word.startsWith('--')) {
      positional.push(word);
      continue;
    }
    const name = word.slice(2);
    if (flags.includes(name)) {
      options[name] = true;
      continue;
    }
    if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
    options[name] = value;
    i += 1;
  }
  return { positional, options };
}
