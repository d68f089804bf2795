import { configVariables } from './config.schema';

export const CONFIG_TABLE_START = '<!-- config-table:start -->';
export const CONFIG_TABLE_END = '<!-- config-table:end -->';

/** The README's configuration table, rendered from the one list the loader validates against. */
export function renderConfigTable(): string {
  const rows = Object.entries(configVariables).map(
    ([name, v]) => `| \`${name}\` | ${v.default !== undefined ? `\`${v.default}\`` : '—'} | ${v.meaning} |`,
  );
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

export function replaceConfigTable(readme: string): string {
  const start = readme.indexOf(CONFIG_TABLE_START);
  const end = readme.indexOf(CONFIG_TABLE_END);
  if (start < 0 || end < start) throw new Error('README.md lacks the config-table markers');
  return `${readme.slice(0, start + CONFIG_TABLE_START.length)}\n${renderConfigTable()}\n${readme.slice(end)}`;
}
