import type { Command } from 'commander';

/**
 * The command `name` of the program (`task`, `turn`), created on first use: several command
 * modules add subcommands to the same group (`task inspect`, `task fork`), each loaded lazily.
 */
export function commandGroup(program: Command, name: string, description: string): Command {
  return program.commands.find((c) => c.name() === name) ?? program.command(name).description(description);
}
