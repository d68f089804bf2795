import type { MemoryVersionState } from '@lomo/domain';

/** A profile stays small (article §7.1: "使用者畫像需要更加克制"): at most this many lines. */
export const PROFILE_MAX_LINES = 12;

/**
 * The profile body from the standing versions it lists: the person's explicit, long-term memories
 * only (an inferred one never enters the profile as the person's word), one line each, newest
 * first, so a long history does not make the profile grow.
 */
export function selectProfileVersions(standing: readonly MemoryVersionState[]): MemoryVersionState[] {
  return standing
    .filter((v) => v.status === 'current' && v.origin === 'explicit' && v.scope.kind === 'long_term')
    .sort((a, b) =>
      a.validFrom === b.validFrom ? a.subject.localeCompare(b.subject) : b.validFrom.localeCompare(a.validFrom),
    )
    .slice(0, PROFILE_MAX_LINES);
}

export function renderProfile(lines: readonly { subject: string; text: string }[]): string {
  if (lines.length === 0) return 'Nothing is remembered about the person yet.';
  return lines.map((l) => `- ${l.text}`).join('\n');
}
