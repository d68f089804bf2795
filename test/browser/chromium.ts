import { existsSync } from 'node:fs';

/** Debian's chromium (`apt-get install chromium`), or the binary LOMO_CHROMIUM names. */
export const CHROMIUM_HINT =
  "Install Debian's chromium (`apt-get update && apt-get install -y chromium`) or set LOMO_CHROMIUM to a Chromium binary.";

/** The flags every browser test launches it with: everything that would reach the network switched off. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string {
  const path = process.env.LOMO_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`No Chromium at ${path}. ${CHROMIUM_HINT}`);
  return path;
}
