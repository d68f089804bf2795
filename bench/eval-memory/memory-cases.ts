import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';

/**
 * The labelled extraction set (test/fixtures/memory/extraction-cases.jsonl, one case a line):
 * earlier statements (`prior`, replayed through the same extractor and planner), the new
 * evidence, and the expected decision per subject. A case with `raw` stands for the model path:
 * those candidates, as a model might answer, replace the offline rules for the new evidence.
 */
const evidence = z.strictObject({
  text: z.string().min(1),
  kind: z.enum(['message', 'observation']).default('message'),
  /** A message said inside the case's task (the default) or on the main line. */
  inTask: z.boolean().default(true),
});

export const DECISIONS = [
  'create',
  'refine',
  'correct',
  'confirm',
  'ignore',
  'malformed',
  'unsupported',
  'conflicting',
  'suppressed',
] as const;
export type Decision = (typeof DECISIONS)[number];

const expected = z.strictObject({
  subject: z.string().optional(),
  /** For model-path cases: the candidate's index in `raw`. */
  index: z.number().int().min(0).optional(),
  decision: z.enum(DECISIONS),
  origin: z.enum(['explicit', 'inferred']).optional(),
  scope: z.enum(['long_term', 'task']).optional(),
});
export type Expected = z.infer<typeof expected>;

export const memoryCase = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  language: z.enum(['en', 'zh-Hant', 'zh-Hans']),
  note: z.string().optional(),
  prior: z.array(z.preprocess((v) => (typeof v === 'string' ? { text: v } : v), evidence)).default([]),
  input: evidence,
  raw: z.array(z.unknown()).optional(),
  /** Forgotten claims: `coversInput` says whether the forgetting came after the input evidence. */
  suppress: z.array(z.strictObject({ subject: z.string(), value: z.string(), coversInput: z.boolean() })).default([]),
  expected: z.array(expected).min(1),
});
export type MemoryCase = z.infer<typeof memoryCase>;

export const CASES_FILE = path.join(__dirname, '../../test/fixtures/memory/extraction-cases.jsonl');

/** The cases, and the rules of the set they break (≥ 40 cases, ≥ 15 Chinese, unique ids). */
export function loadMemoryCases(file = CASES_FILE): { cases: MemoryCase[]; problems: string[] } {
  const problems: string[] = [];
  const cases: MemoryCase[] = [];
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const parsed = memoryCase.safeParse(JSON.parse(line));
    if (parsed.success) cases.push(parsed.data);
    else problems.push(`line ${i + 1}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
  });
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) problems.push(`duplicate id ${c.id}`);
    ids.add(c.id);
  }
  if (cases.length < 40) problems.push(`only ${cases.length} cases (at least 40)`);
  const chinese = cases.filter((c) => c.language !== 'en').length;
  if (chinese < 15) problems.push(`only ${chinese} Chinese cases (at least 15)`);
  return { cases, problems };
}
