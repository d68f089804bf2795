/**
 * A stage the person sent back with "adjust" (README.md beside this file, "Plans", Adjust): when
 * its checklist line links an artefact, the policy revises THAT document, so the note reaches
 * its next version instead of a new document beside it. Read the latest version (the context
 * holds ids, not versions or text), then one document.edit that puts the note's section under
 * the document's first line. Anything unexpected falls back to writing a new document.
 */
import { artifactOf, type Done } from './plan-calls';

export const REVISION_TOOLS = { read: 'document.read', edit: 'document.edit' } as const;

export type RevisionStep =
  | { kind: 'call'; name: string; args: Record<string, unknown> }
  /** The edit made this version: the item is done with it. */
  | { kind: 'done'; artifactId: string; version: number }
  /** No edit in place (gone, not a document, changed meanwhile…): write a new document. */
  | { kind: 'rewrite' };

const failed = (c: Done) => c.outcome !== undefined && !c.outcome.ok && !c.outcome.pending;

/**
 * The next revision step for the linked artefact `target`, from the calls since the last
 * checklist.update. `section` is the note's markdown section, inserted after the first line (the
 * title); that line must occur exactly once, as document.edit requires of its snippet.
 */
export function revisionStep(target: string, section: string, since: readonly Done[]): RevisionStep {
  const mine = since.filter(
    (c) => (c.name === REVISION_TOOLS.read || c.name === REVISION_TOOLS.edit) && c.args.artifactId === target,
  );
  if (mine.some(failed)) return { kind: 'rewrite' };
  const edited = artifactOf(mine.find((c) => c.name === REVISION_TOOLS.edit && c.outcome?.ok === true)?.outcome);
  if (edited !== undefined) return { kind: 'done', ...edited };
  const read = mine.find((c) => c.name === REVISION_TOOLS.read && c.outcome?.ok === true)?.outcome;
  if (read === undefined) return { kind: 'call', name: REVISION_TOOLS.read, args: { artifactId: target } };
  const version = artifactOf(read)?.version;
  const text = read.result.text;
  if (version === undefined || typeof text !== 'string' || read.result.deleted === true) return { kind: 'rewrite' };
  const first = text.split('\n').find((line) => line.trim() !== '');
  if (first === undefined || text.split(first).length !== 2) return { kind: 'rewrite' };
  return {
    kind: 'call',
    name: REVISION_TOOLS.edit,
    args: { artifactId: target, baseVersion: version, edits: [{ old: first, new: `${first}\n\n${section}` }] },
  };
}
