import { createHash } from 'node:crypto';
import type { BlobRef, BlobStore } from '@lomo/blobs';
import type { ChatMessage, ToolSpec } from '@lomo/llm';
import type { Prompt, PromptLayer } from './context-builder';

const PROMPT_TYPE = 'application/vnd.lomo.prompt+json';
const PREFIX_TYPE = 'application/vnd.lomo.prompt-prefix+json';

/**
 * The archived form: the shared prefix (first message + tools) by reference, the rest inline,
 * with the layer boundaries (v2) so an operator sees what each layer held. v1 had no layers.
 * v3 is a delta: the first `keep` messages after the first are the base prompt's (the step
 * before, which this one extends up to its tail), the rest inline; every `FULL_EVERY`-th prompt
 * of a chain is stored whole, so a read follows at most that many links.
 */
interface ArchivedPrompt {
  format: 'lomo.prompt/1' | 'lomo.prompt/2' | 'lomo.prompt/3';
  prefixRef: BlobRef;
  messages: ChatMessage[];
  layers?: PromptLayer[];
  allowedTools?: readonly string[];
  base?: { ref: BlobRef; keep: number };
}

/** A chain's links before a prompt is stored whole again. */
const FULL_EVERY = 32;

interface ChainHead {
  ref: BlobRef;
  rest: readonly ChatMessage[];
  depth: number;
}

interface ArchivedPrefix {
  first: ChatMessage;
  tools: readonly ToolSpec[];
}

/**
 * Keeps what the model saw at each step, so an operator can read it back exactly. The prefix
 * every step shares (rules and tool specs) is stored once and referenced, so a step's blob holds
 * only what is particular to it.
 */
export class PromptArchive {
  private readonly knownPrefixes = new Map<string, BlobRef>();
  private readonly chains = new Map<string, ChainHead>();

  constructor(private readonly blobs: BlobStore) {}

  /**
   * `chain` (the task): consecutive prompts of one chain are stored as deltas of the one before,
   * so a step writes what is new in its prompt, not the whole history again.
   */
  async store(prompt: Prompt, chain?: string): Promise<BlobRef> {
    const [first, ...rest] = prompt.messages;
    const prefix = JSON.stringify({ first, tools: prompt.tools } satisfies ArchivedPrefix);
    const prefixRef = await this.storePrefix(prefix);
    const head = chain === undefined ? undefined : this.chains.get(chain);
    const keep = head === undefined || head.depth >= FULL_EVERY ? 0 : sharedLength(head.rest, rest);
    const archived: ArchivedPrompt = {
      format: keep > 0 ? 'lomo.prompt/3' : 'lomo.prompt/2',
      prefixRef,
      messages: rest.slice(keep),
      layers: prompt.layers,
      ...(prompt.allowedTools !== undefined ? { allowedTools: prompt.allowedTools } : {}),
      ...(keep > 0 && head !== undefined ? { base: { ref: head.ref, keep } } : {}),
    };
    const ref = await this.blobs.put(JSON.stringify(archived), PROMPT_TYPE);
    if (chain !== undefined) {
      if (this.chains.size > 10_000) this.chains.clear();
      this.chains.set(chain, { ref, rest, depth: keep > 0 && head !== undefined ? head.depth + 1 : 0 });
    }
    return ref;
  }

  /** The prompt exactly as sent; undefined when a blob it needs was deleted. */
  async load(ref: BlobRef): Promise<Prompt | undefined> {
    const archived = await this.read(ref);
    if (archived === undefined) return undefined;
    const messages = await this.messagesOf(archived);
    if (messages === undefined) return undefined;
    const prefixBody = await this.blobs.get(archived.prefixRef.hash);
    if (prefixBody === undefined) return undefined;
    const prefix = JSON.parse(prefixBody.toString('utf8')) as ArchivedPrefix;
    return {
      messages: [prefix.first, ...messages],
      tools: prefix.tools,
      layers: archived.layers ?? [],
      ...(archived.allowedTools !== undefined ? { allowedTools: archived.allowedTools } : {}),
    };
  }

  private async read(ref: BlobRef): Promise<ArchivedPrompt | undefined> {
    const body = await this.blobs.get(ref.hash);
    return body === undefined ? undefined : (JSON.parse(body.toString('utf8')) as ArchivedPrompt);
  }

  /** The messages after the first: the bases' kept ones, link by link, then this one's own. */
  private async messagesOf(archived: ArchivedPrompt): Promise<ChatMessage[] | undefined> {
    const links: ArchivedPrompt[] = [archived];
    while (links[0].base !== undefined) {
      const base = await this.read(links[0].base.ref);
      if (base === undefined) return undefined;
      links.unshift(base);
    }
    let messages = links[0].messages;
    for (const link of links.slice(1)) messages = [...messages.slice(0, link.base!.keep), ...link.messages];
    return messages;
  }

  private async storePrefix(prefix: string): Promise<BlobRef> {
    // Keyed by the content's own hash: the same rules and tools are written once per process.
    const key = createHash('sha256').update(prefix).digest('hex');
    const known = this.knownPrefixes.get(key);
    if (known !== undefined) return known;
    const ref = await this.blobs.put(prefix, PREFIX_TYPE);
    this.knownPrefixes.set(key, ref);
    return ref;
  }
}

/** How many leading messages two prompts share (the same objects, or equal ones). */
function sharedLength(a: readonly ChatMessage[], b: readonly ChatMessage[]): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && (a[i] === b[i] || JSON.stringify(a[i]) === JSON.stringify(b[i]))) i += 1;
  return i;
}
