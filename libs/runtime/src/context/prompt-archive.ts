import { createHash } from 'node:crypto';
import type { BlobRef, BlobStore } from '@lomo/blobs';
import type { ChatMessage, ToolSpec } from '@lomo/llm';
import type { Prompt, PromptLayer } from './context-builder';

const PROMPT_TYPE = 'application/vnd.lomo.prompt+json';
const PREFIX_TYPE = 'application/vnd.lomo.prompt-prefix+json';

/**
 * The archived form: the shared prefix (first message + tools) by reference, the rest inline,
 * with the layer boundaries (v2) so an operator sees what each layer held. v1 had no layers.
 */
interface ArchivedPrompt {
  format: 'lomo.prompt/1' | 'lomo.prompt/2';
  prefixRef: BlobRef;
  messages: ChatMessage[];
  layers?: PromptLayer[];
  allowedTools?: readonly string[];
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

  constructor(private readonly blobs: BlobStore) {}

  async store(prompt: Prompt): Promise<BlobRef> {
    const [first, ...rest] = prompt.messages;
    const prefix = JSON.stringify({ first, tools: prompt.tools } satisfies ArchivedPrefix);
    const prefixRef = await this.storePrefix(prefix);
    const archived: ArchivedPrompt = {
      format: 'lomo.prompt/2',
      prefixRef,
      messages: rest,
      layers: prompt.layers,
      ...(prompt.allowedTools !== undefined ? { allowedTools: prompt.allowedTools } : {}),
    };
    return this.blobs.put(JSON.stringify(archived), PROMPT_TYPE);
  }

  /** The prompt exactly as sent; undefined when a blob was deleted. */
  async load(ref: BlobRef): Promise<Prompt | undefined> {
    const body = await this.blobs.get(ref.hash);
    if (body === undefined) return undefined;
    const archived = JSON.parse(body.toString('utf8')) as ArchivedPrompt;
    const prefixBody = await this.blobs.get(archived.prefixRef.hash);
    if (prefixBody === undefined) return undefined;
    const prefix = JSON.parse(prefixBody.toString('utf8')) as ArchivedPrefix;
    return {
      messages: [prefix.first, ...archived.messages],
      tools: prefix.tools,
      layers: archived.layers ?? [],
      ...(archived.allowedTools !== undefined ? { allowedTools: archived.allowedTools } : {}),
    };
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
