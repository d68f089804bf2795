import { existsSync } from 'node:fs';

/** Debian's chromium (`apt-get install chromium`), or the binary LOMO_CHROMIUM names. */
export const CHROMIUM_HINT =
  "Install Debian's chromium (`apt-get update && apt-get install -y chromium`) or set LOMO_CHROMIUM to a Chromium binary.";

export function chromiumPath(): string {
  const path = process.env.LOMO_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`No Chromium at ${path}. ${CHROMIUM_HINT}`);
  return path;
}
