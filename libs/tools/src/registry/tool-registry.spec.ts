import { z } from 'zod';
import { ValidationError } from '@lomo/contracts';
import { ToolRegistry } from './tool-registry';
import { ToolErrorCodes, ToolFailure, ToolRegistrationError } from '../tool-errors';
import { okResult, pendingResult } from '../tool-results';
import { defineTool, type JsonValue, type ToolDefinition, type ToolDomain, type ToolResult } from '../tool.port';
import { makeToolContext } from '../testing/tool-context';

function fakeTool(
  name: string,
  domain: ToolDomain = 'core',
  run: (input: { text: string; times: number }) => Promise<ToolResult> = async (input) =>
    okResult({ echoed: input.text.repeat(input.times) }),
): ToolDefinition<{ text: string; times: number }> {
  return defineTool({
    name,
    description: `Fake tool ${name}`,
    domain,
    sideEffect: 'read',
    idempotent: true,
    input: z.strictObject({ text: z.string().min(1), times: z.number().int().min(1).default(1) }),
    run,
  });
}

const noArgs = (name: string, run: () => Promise<ToolResult>, extra: Partial<ToolDefinition> = {}): ToolDefinition =>
  ({
    name,
    description: 'Takes no arguments',
    domain: 'core',
    sideEffect: 'write',
    idempotent: false,
    input: z.strictObject({}),
    run,
    ...extra,
  }) as ToolDefinition;

const errorOf = (result: ToolResult) => {
  if (result.status !== 'error') throw new Error(`expected an error result, got ${JSON.stringify(result)}`);
  return result.error;
};

describe('ToolRegistry registration', () => {
  it.each(['Notes.create', '1notes', 'notes-create', '', 'a'.repeat(65), 'notes create'])(
    'refuses the name %j',
    (name) => {
      expect(() => new ToolRegistry([fakeTool(name)])).toThrow(ToolRegistrationError);
    },
  );

  it('accepts dotted and snake_case names up to 64 characters', () => {
    const registry = new ToolRegistry([fakeTool('notes.append_line'), fakeTool(`a${'b'.repeat(63)}`)]);
    expect(registry.has('notes.append_line')).toBe(true);
    expect(registry.list()).toHaveLength(2);
  });

  it('refuses a second tool with the same name', () => {
    const registry = new ToolRegistry([fakeTool('echo')]);
    expect(() => registry.register(fakeTool('echo', 'image'))).toThrow(/already registered/);
  });

  it('refuses a blank description, an unknown domain and a non-object input schema', () => {
    expect(() => new ToolRegistry([{ ...fakeTool('a'), description: '  ' }])).toThrow(/description/);
    expect(() => new ToolRegistry([{ ...fakeTool('b'), domain: 'music' as ToolDomain }])).toThrow(/unknown domain/);
    const scalar = { ...noArgs('c', async () => okResult(null)), input: z.string() } as ToolDefinition;
    expect(() => new ToolRegistry([scalar])).toThrow(/must be an object/);
  });

  it("refuses authorizedBy 'ledger' on anything but a paid tool, and an unknown authority", () => {
    for (const sideEffect of ['read', 'write', 'irreversible'] as const) {
      const tool = noArgs(`l_${sideEffect}`, async () => okResult(null), { sideEffect, authorizedBy: 'ledger' });
      expect(() => new ToolRegistry([tool])).toThrow(/only for paid tools/);
    }
    const odd = noArgs('l_odd', async () => okResult(null), {
      sideEffect: 'paid',
      authorizedBy: 'budget' as ToolDefinition['authorizedBy'],
    });
    expect(() => new ToolRegistry([odd])).toThrow(/unknown authority/);
    const paid = noArgs('l_paid', async () => okResult(null), { sideEffect: 'paid', authorizedBy: 'ledger' });
    expect(new ToolRegistry([paid]).has('l_paid')).toBe(true);
  });

  it('refuses an input schema with no JSON Schema form', () => {
    const transformed = {
      ...noArgs('d', async () => okResult(null)),
      input: z.strictObject({ when: z.date() }),
    } as ToolDefinition;
    expect(() => new ToolRegistry([transformed])).toThrow(/no JSON Schema form/);
  });
});

describe('ToolRegistry listing and specs', () => {
  const registry = new ToolRegistry([
    fakeTool('video.cut', 'video'),
    fakeTool('notes.list'),
    fakeTool('image.make', 'image'),
    fakeTool('asset.find', 'asset'),
    fakeTool('notes.create'),
    fakeTool('image.edit', 'image'),
  ]);

  it('offers core tools only, unless on-demand domains are asked for', () => {
    expect(registry.specs().map((s) => s.name)).toEqual(['notes.create', 'notes.list']);
    expect(registry.specs(['image']).map((s) => s.name)).toEqual([
      'notes.create',
      'notes.list',
      'image.edit',
      'image.make',
    ]);
  });

  it('keeps one order whatever the registration order and the order domains are asked in', () => {
    const reversed = new ToolRegistry([...registry.list()].reverse());
    const a = registry.specs(['asset', 'video', 'image']);
    const b = reversed.specs(['image', 'asset', 'video']);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    // Asking for one more domain appends: the earlier list stays a prefix (prompt cache).
    expect(a.slice(0, 4)).toEqual(registry.specs(['image']));
    expect(a.map((s) => s.name)).toEqual([
      'notes.create',
      'notes.list',
      'image.edit',
      'image.make',
      'video.cut',
      'asset.find',
    ]);
  });

  it('lists every tool without domains, and core plus the named domains with them', () => {
    expect(registry.list()).toHaveLength(6);
    expect(registry.list({ domains: ['video'] }).map((t) => t.name)).toEqual([
      'notes.create',
      'notes.list',
      'video.cut',
    ]);
  });

  it('describes parameters with the JSON Schema of the input, defaults optional', () => {
    const spec = registry.specs().find((s) => s.name === 'notes.list');
    expect(spec).toEqual({
      name: 'notes.list',
      description: 'Fake tool notes.list',
      parameters: {
        type: 'object',
        properties: {
          text: { type: 'string', minLength: 1 },
          times: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 },
        },
        required: ['text'],
        additionalProperties: false,
      },
    });
  });

  it('gets a tool by name and answers undefined for an unknown one', () => {
    expect(registry.get('image.make')?.domain).toBe('image');
    expect(registry.get('image.paint')).toBeUndefined();
  });
});

describe('ToolRegistry.invoke', () => {
  it('runs a tool with arguments given as JSON text or as an object', async () => {
    const registry = new ToolRegistry([fakeTool('echo')]);
    await expect(registry.invoke('echo', '{"text":"ab","times":2}', makeToolContext())).resolves.toEqual(
      okResult({ echoed: 'abab' }),
    );
    await expect(registry.invoke('echo', { text: 'x' }, makeToolContext())).resolves.toEqual(okResult({ echoed: 'x' }));
  });

  it('answers TOOL_NOT_FOUND, naming the tools that exist, for an unknown tool', async () => {
    const registry = new ToolRegistry([fakeTool('echo'), fakeTool('notes.list')]);
    const error = errorOf(await registry.invoke('notes.remove', '{}', makeToolContext()));
    expect(error).toEqual({
      code: ToolErrorCodes.notFound,
      message: 'There is no tool named "notes.remove". Available tools: echo, notes.list.',
      retriable: false,
    });
  });

  it('answers TOOL_INVALID_ARGUMENTS for text that is not JSON', async () => {
    const registry = new ToolRegistry([fakeTool('echo')]);
    const error = errorOf(await registry.invoke('echo', '{"text": "unterminated', makeToolContext()));
    expect(error.code).toBe(ToolErrorCodes.invalidArguments);
    expect(error.message).toMatch(/^Arguments for echo are not valid JSON/);
    expect(error.retriable).toBe(false);
  });

  it('answers TOOL_INVALID_ARGUMENTS with each zod issue and its path', async () => {
    const registry = new ToolRegistry([fakeTool('echo')]);
    const error = errorOf(await registry.invoke('echo', '{"text":"","times":0,"extra":1}', makeToolContext()));
    expect(error.code).toBe(ToolErrorCodes.invalidArguments);
    expect(error.message).toMatch(/^Invalid arguments for echo: /);
    expect(error.message).toContain('text: ');
    expect(error.message).toContain('times: ');
    expect(error.message).toContain('extra');
  });

  it('treats empty arguments as an empty object (models send "" for tools without parameters)', async () => {
    const run = jest.fn(async () => okResult('done'));
    const registry = new ToolRegistry([noArgs('ping', run)]);
    await expect(registry.invoke('ping', '', makeToolContext())).resolves.toEqual(okResult('done'));
    await expect(registry.invoke('ping', undefined, makeToolContext())).resolves.toEqual(okResult('done'));
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('never runs the tool when the arguments are bad', async () => {
    const run = jest.fn(async () => okResult(null));
    const registry = new ToolRegistry([fakeTool('echo', 'core', run)]);
    await registry.invoke('echo', '[1,2]', makeToolContext());
    expect(run).not.toHaveBeenCalled();
  });

  it('turns a typed error thrown by a tool into its code and retriability', async () => {
    const registry = new ToolRegistry([
      noArgs('flaky', async () => {
        throw new ToolFailure('UPSTREAM_BUSY', 'try again in a minute', true);
      }),
      noArgs('strict', async () => {
        throw new ValidationError('bad', []);
      }),
    ]);
    expect(errorOf(await registry.invoke('flaky', '{}', makeToolContext()))).toEqual({
      code: 'UPSTREAM_BUSY',
      message: 'try again in a minute',
      retriable: true,
    });
    expect(errorOf(await registry.invoke('strict', '{}', makeToolContext()))).toMatchObject({
      code: 'VALIDATION_FAILED',
      retriable: false,
    });
  });

  it('turns any other thrown value into TOOL_FAILED, not retriable', async () => {
    const registry = new ToolRegistry([
      noArgs('broken', async () => {
        throw new TypeError('cannot read properties of undefined');
      }),
    ]);
    expect(errorOf(await registry.invoke('broken', '{}', makeToolContext()))).toEqual({
      code: ToolErrorCodes.failed,
      message: 'cannot read properties of undefined',
      retriable: false,
    });
  });

  it('does not start a tool whose signal is already aborted', async () => {
    const run = jest.fn(async () => okResult(null));
    const registry = new ToolRegistry([noArgs('ping', run)]);
    const controller = new AbortController();
    controller.abort();
    const error = errorOf(await registry.invoke('ping', '{}', makeToolContext({ signal: controller.signal })));
    expect(error.code).toBe(ToolErrorCodes.aborted);
    expect(error.message).toMatch(/not started/);
    expect(run).not.toHaveBeenCalled();
  });

  it('answers TOOL_ABORTED at once when aborted mid-call, without waiting for a tool that ignores it', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const registry = new ToolRegistry([
      noArgs('hang', () => {
        started();
        return new Promise<ToolResult>(() => undefined);
      }),
    ]);
    const controller = new AbortController();
    const call = registry.invoke('hang', '{}', makeToolContext({ signal: controller.signal }));
    await running;
    controller.abort();
    const error = errorOf(await call);
    expect(error.code).toBe(ToolErrorCodes.aborted);
    expect(error.message).toMatch(/may or may not have happened/);
  });

  it('reports the abort, not the symptom, when a tool throws because it was aborted', async () => {
    const controller = new AbortController();
    const registry = new ToolRegistry([
      noArgs('obedient', async () => {
        controller.abort();
        throw new Error('socket closed');
      }),
    ]);
    const error = errorOf(await registry.invoke('obedient', '{}', makeToolContext({ signal: controller.signal })));
    expect(error.code).toBe(ToolErrorCodes.aborted);
  });

  it('refuses pending from a tool that is not declared async, and accepts it from an async one', async () => {
    const registry = new ToolRegistry([
      noArgs('sync_liar', async () => pendingResult()),
      noArgs('long_job', async () => pendingResult('queued'), { async: true }),
    ]);
    expect(errorOf(await registry.invoke('sync_liar', '{}', makeToolContext())).code).toBe(
      ToolErrorCodes.contractViolation,
    );
    await expect(registry.invoke('long_job', '{}', makeToolContext())).resolves.toEqual(pendingResult('queued'));
  });

  it('refuses an output that is not plain JSON', async () => {
    const registry = new ToolRegistry([
      noArgs('dated', async () => okResult({ at: new Date() as unknown as JsonValue })),
    ]);
    expect(errorOf(await registry.invoke('dated', '{}', makeToolContext())).code).toBe(
      ToolErrorCodes.contractViolation,
    );
  });
});

describe('ToolRegistry.authorize', () => {
  const registry = new ToolRegistry([
    noArgs('notes.delete', async () => okResult(null), { sideEffect: 'irreversible' }),
    fakeTool('echo'),
  ]);
  const callId = makeToolContext().callId;

  it('asks for approval of an irreversible call and allows it once that call id is approved', () => {
    expect(registry.authorize('notes.delete', callId, new Set())).toMatchObject({ decision: 'needs_approval', callId });
    expect(registry.authorize('notes.delete', callId, new Set([callId]))).toEqual({ decision: 'allowed' });
  });

  it('allows a paid call authorized by the ledger without a checkpoint; a paid call by default still asks', () => {
    const paid = new ToolRegistry([
      noArgs('image.make', async () => pendingResult(), { sideEffect: 'paid', authorizedBy: 'ledger' }),
      noArgs('print.order', async () => okResult(null), { sideEffect: 'paid' }),
      noArgs('print.cancel', async () => okResult(null), { sideEffect: 'paid', authorizedBy: 'person' }),
    ]);
    expect(paid.authorize('image.make', callId, new Set())).toEqual({ decision: 'allowed' });
    expect(paid.authorize('print.order', callId, new Set())).toMatchObject({ decision: 'needs_approval', callId });
    expect(paid.authorize('print.cancel', callId, new Set())).toMatchObject({ decision: 'needs_approval', callId });
  });

  it('allows reads and unknown tools (the latter fail as TOOL_NOT_FOUND when invoked)', () => {
    expect(registry.authorize('echo', callId, new Set())).toEqual({ decision: 'allowed' });
    expect(registry.authorize('nothing.here', callId, new Set())).toEqual({ decision: 'allowed' });
  });
});
