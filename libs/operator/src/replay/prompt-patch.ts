import { z } from 'zod';
import type { Prompt } from '@lomo/runtime';
import { PromptPatchRefusedError } from './replay-errors';

const LAYERS = ['prefix', 'history', 'recent', 'tail', 'input'] as const;

const layerRewrite = z.strictObject({
  layer: z.enum(LAYERS),
  find: z.string().min(1),
  replace: z.string(),
});
const toolRewrite = z.strictObject({ tool: z.string().min(1), description: z.string().min(1) });
const briefRewrite = z.strictObject({ brief: z.string().min(1) });

export const promptPatchSchema = z.strictObject({
  patches: z.array(z.union([layerRewrite, toolRewrite, briefRewrite])).min(1),
});

/**
 * Rewrites of a rebuilt prompt for a replay: a layer's text (every occurrence of `find` in the
 * layer's messages), a tool's description, or the brief the tail shows.
 */
export type PromptPatch = z.infer<typeof promptPatchSchema>;
export type PromptRewrite = PromptPatch['patches'][number];

/** A patch file's text (or an already parsed value); anything else than the schema is refused (badInput). */
export function parsePromptPatch(input: string | unknown): PromptPatch {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new PromptPatchRefusedError(`not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  const parsed = promptPatchSchema.safeParse(value);
  if (!parsed.success)
    throw new PromptPatchRefusedError(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
    );
  return parsed.data;
}

/** How a rewrite is named in a report. */
export const describeRewrite = (r: PromptRewrite): string =>
  'layer' in r ? `layer ${r.layer}: "${r.find}"` : 'tool' in r ? `tool ${r.tool}` : 'brief';

/**
 * The prompt with the patch applied (a new object; the input is left as it was), and the
 * rewrites that changed something. `brief`: the brief text the tail shows now, if any.
 */
export function applyPromptPatch(
  prompt: Prompt,
  patch: PromptPatch | undefined,
  brief: string | null,
): { prompt: Prompt; applied: string[] } {
  if (patch === undefined) return { prompt, applied: [] };
  let messages = prompt.messages.map((m) => ({ ...m }));
  let tools = prompt.tools.map((t) => ({ ...t }));
  const applied: string[] = [];
  const inLayer = (name: string) => {
    const layer = prompt.layers.find((l) => l.layer === name);
    return layer === undefined ? [] : messages.slice(layer.start, layer.end);
  };
  const rewrite = (targets: typeof messages, find: string, replace: string): boolean => {
    let changed = false;
    for (const m of targets)
      if (m.content.includes(find)) {
        m.content = m.content.split(find).join(replace);
        changed = true;
      }
    return changed;
  };
  for (const r of patch.patches) {
    let changed = false;
    if ('layer' in r) changed = rewrite(inLayer(r.layer), r.find, r.replace);
    else if ('tool' in r) {
      tools = tools.map((t) => {
        if (t.name !== r.tool || t.description === r.description) return t;
        changed = true;
        return { ...t, description: r.description };
      });
    } else if (brief !== null && brief !== '') changed = rewrite(inLayer('tail'), brief, r.brief);
    if (changed) applied.push(describeRewrite(r));
  }
  messages = [...messages];
  return { prompt: { ...prompt, messages, tools }, applied };
}
