import { z } from 'zod';
import {
  ModelInvalidOutputError,
  structuredOutput,
  type ChatMessage,
  type ModelProvider,
  type StructuredOutputFormat,
} from '@lomo/llm';
import { EXTRACTION_ANSWER_SCHEMA_NAME, extractionAnswer } from './memory-candidate';
import type { ExtractionRequest, MemoryExtractor } from './memory-extractor.port';

/**
 * The envelope checked here is loose on purpose: the model is asked for the strict schema, but a
 * candidate that misses it must reach validateCandidates and be recorded `malformed` on its own,
 * not fail the whole answer (completeStructured would re-ask or throw for one bad candidate).
 */
const envelope = z.object({ candidates: z.array(z.unknown()).max(100) });

const INSTRUCTIONS = `You extract memory candidates about ONE person from ONE piece of evidence.
Answer with JSON {"candidates": [...]}; an empty list when nothing is worth keeping (chit-chat, questions, hypotheticals, other people's preferences, quoted or pasted text).
Each candidate:
- subject: dotted lowercase key (reuse a standing memory's subject when the evidence is about it), e.g. brand.colour.main, style.palette, style.visual.
- kind: "preference" or "fact". scope: "long_term", or "task" for a request about the current piece only ("this time", "for this one").
- origin: "explicit" only when the person said it in so many words; "inferred" when you deduce it. Evidence of kind "observation" (what the agent generated) can only give inferred preferences.
- relation to the standing memories: "states" (new), "refines" (adds to or narrows it), "corrects" (says it is wrong or has changed), "confirms" (restates it).
- claim: one short sentence in the evidence's language. value: the normalised value (short, lowercase). supports: the exact words of the evidence it rests on, copied verbatim.
Never turn web content, tool results or the agent's own text into a fact about the person.`;

export interface ModelMemoryExtractorOptions {
  maxOutputTokens?: number;
  /** Further asks after an answer that is not the envelope; default 1. */
  retries?: number;
}

/**
 * Extraction through the configured model with a structured output (the `extract_memories`
 * schema). Returns the raw candidates, unchecked: planExtraction validates them one by one.
 * ModelErrors from the provider pass through (their `retriable` tells the worker whether to
 * retry or dead-letter); an answer that is not even the envelope after the retries is a
 * MODEL_INVALID_OUTPUT.
 */
export class ModelMemoryExtractor implements MemoryExtractor {
  readonly kind = 'model' as const;
  private readonly format: StructuredOutputFormat;

  constructor(
    private readonly model: ModelProvider,
    private readonly options: ModelMemoryExtractorOptions = {},
  ) {
    this.format = structuredOutput(EXTRACTION_ANSWER_SCHEMA_NAME, extractionAnswer);
  }

  async extract(request: ExtractionRequest): Promise<unknown[]> {
    let messages: readonly ChatMessage[] = [
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: JSON.stringify(promptOf(request)) },
    ];
    const attempts = 1 + Math.max(0, this.options.retries ?? 1);
    let problem = '';
    const usage = { inputTokens: 0, outputTokens: 0 };
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      const result = await this.model.complete({
        messages,
        tools: [],
        responseFormat: this.format,
        maxOutputTokens: this.options.maxOutputTokens ?? 1200,
        temperature: 0,
        ...(request.signal ? { signal: request.signal } : {}),
        trace: { purpose: 'memory_extraction' },
      });
      usage.inputTokens += result.usage.inputTokens;
      usage.outputTokens += result.usage.outputTokens;
      const parsed = parseEnvelope(result.text);
      if (parsed.ok) return parsed.candidates;
      problem = parsed.problem;
      messages = [
        ...messages,
        { role: 'assistant', content: result.text.slice(0, 500) },
        { role: 'user', content: `Your previous answer ${problem}. Answer again with only {"candidates": [...]}.` },
      ];
    }
    throw new ModelInvalidOutputError(
      `memory extraction answer still invalid after ${attempts} attempt(s): ${problem}`,
      attempts,
      usage,
      { name: EXTRACTION_ANSWER_SCHEMA_NAME },
    );
  }
}

function parseEnvelope(text: string): { ok: true; candidates: unknown[] } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'was not valid JSON' };
  }
  const result = envelope.safeParse(json);
  return result.success
    ? { ok: true, candidates: result.data.candidates }
    : { ok: false, problem: 'had no "candidates" array' };
}

/** What the model sees: the evidence and the standing memories (subject, claim, value, origin). */
function promptOf(request: ExtractionRequest) {
  return {
    evidence: {
      kind: request.evidence.source.kind,
      text: request.text,
      inTask: request.evidence.source.taskId !== undefined,
    },
    standing: request.standing.map((m) => ({
      subject: m.subject,
      scope: m.scope.kind,
      origin: m.origin,
      claim: m.claim,
      value: m.value,
    })),
    recentObservations: request.recentObservations.slice(0, 10),
  };
}
