import { canonicalDigest } from '@lomo/contracts';

/**
 * The sha-256 of a call as its approval card shows it (tool and arguments). The card records it;
 * an approval whose card names another hash is never applied to the call (DESIGN.md §5: an
 * ambiguous authorization refuses rather than runs).
 */
export const callArgumentsHash = (tool: string, args: unknown): string => canonicalDigest([tool, args]);
