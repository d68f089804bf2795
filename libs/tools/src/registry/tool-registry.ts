import { authorizeCall, type ApprovedCalls, type AuthorizationDecision } from '../authorization/authorize-call';
import { errorResult } from '../tool-results';
import { ToolErrorCodes, ToolRegistrationError } from '../tool-errors';
import { TOOL_DOMAINS, type ToolContext, type ToolDefinition, type ToolDomain, type ToolResult } from '../tool.port';
import { parseToolArguments } from './tool-arguments';
import { runTool } from './run-tool';
import { toolSpecOf, type ToolSpec } from './tool-spec';
import { validateDefinition } from './validate-definition';

/** A call whose tool exists and whose arguments parsed: ready for authorization and running. */
export interface PreparedCall {
  tool: ToolDefinition;
  input: unknown;
}

export type PrepareOutcome = { ok: true; call: PreparedCall } | { ok: false; result: ToolResult };

interface Entry {
  definition: ToolDefinition;
  spec: ToolSpec;
}

/**
 * The tools the agent may call. Whatever the model sends, `invoke` resolves to a result the model
 * can read (unknown tool, bad arguments, a tool that threw): a model's mistake never crashes a turn.
 * Authorization is separate (`authorize`), because the runtime must open a checkpoint, not an error,
 * when a paid or irreversible call lacks a recorded approval.
 */
export class ToolRegistry {
  private readonly entries = new Map<string, Entry>();

  constructor(definitions: Iterable<ToolDefinition> = []) {
    for (const definition of definitions) this.register(definition);
  }

  register(definition: ToolDefinition): this {
    validateDefinition(definition);
    if (this.entries.has(definition.name)) {
      throw new ToolRegistrationError(definition.name, 'a tool with this name is already registered');
    }
    this.entries.set(definition.name, { definition, spec: toolSpecOf(definition) });
    return this;
  }

  get(name: string): ToolDefinition | undefined {
    return this.entries.get(name)?.definition;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /**
   * Without `domains`: every tool. With them: core tools plus those domains. Always in the same
   * order (domain order of TOOL_DOMAINS, then name), whatever the registration order.
   */
  list(options: { domains?: readonly ToolDomain[] } = {}): ToolDefinition[] {
    return this.selected(options.domains).map((e) => e.definition);
  }

  /** What the model is offered: core tools always, on-demand domains only when asked for. */
  specs(domains: readonly ToolDomain[] = []): ToolSpec[] {
    return this.selected(domains).map((e) => e.spec);
  }

  /** Resolves the tool and parses the arguments, or returns the error result the model should see. */
  prepare(name: string, rawArguments: string | unknown): PrepareOutcome {
    const entry = this.entries.get(name);
    if (!entry) return { ok: false, result: this.notFound(name) };
    const parsed = parseToolArguments(name, entry.definition.input, rawArguments);
    if (!parsed.ok) return parsed;
    return { ok: true, call: { tool: entry.definition, input: parsed.input } };
  }

  /** Runs a prepared call; resolves with the tool's result or an error result, never rejects. */
  run(call: PreparedCall, context: ToolContext): Promise<ToolResult> {
    return runTool(call.tool, call.input, context);
  }

  /** prepare + run. Does not authorize: call `authorize` first for paid and irreversible tools. */
  async invoke(name: string, rawArguments: string | unknown, context: ToolContext): Promise<ToolResult> {
    const prepared = this.prepare(name, rawArguments);
    return prepared.ok ? this.run(prepared.call, context) : prepared.result;
  }

  /**
   * Authorization for one call by tool name. An unknown tool is "allowed" here because it cannot
   * run anyway: `invoke` answers TOOL_NOT_FOUND, and asking a person to approve it would be absurd.
   */
  authorize(name: string, callId: string, approvedCalls: ApprovedCalls): AuthorizationDecision {
    const definition = this.entries.get(name)?.definition;
    if (!definition) return { decision: 'allowed' };
    return authorizeCall({
      toolName: name,
      sideEffect: definition.sideEffect,
      authorizedBy: definition.authorizedBy,
      callId,
      approvedCalls,
    });
  }

  private selected(domains: readonly ToolDomain[] | undefined): Entry[] {
    const wanted = domains === undefined ? undefined : new Set<ToolDomain>(['core', ...domains]);
    return [...this.entries.values()]
      .filter((e) => wanted === undefined || wanted.has(e.definition.domain))
      .sort(byDomainThenName);
  }

  private notFound(name: string): ToolResult {
    const known = [...this.entries.keys()].sort().join(', ');
    const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
    return errorResult(
      ToolErrorCodes.notFound,
      `There is no tool named "${shown}". Available tools: ${known || '(none)'}.`,
      false,
    );
  }
}

function byDomainThenName(a: Entry, b: Entry): number {
  const domain = TOOL_DOMAINS.indexOf(a.definition.domain) - TOOL_DOMAINS.indexOf(b.definition.domain);
  if (domain !== 0) return domain;
  return a.definition.name < b.definition.name ? -1 : a.definition.name > b.definition.name ? 1 : 0;
}
