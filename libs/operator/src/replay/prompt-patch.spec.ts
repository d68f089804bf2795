import type { Prompt } from '@lomo/runtime';
import { applyPromptPatch, parsePromptPatch } from './prompt-patch';
import { compareContext, promptHash } from './prompt-fingerprint';

const prompt = (): Prompt => ({
  messages: [
    { role: 'system', content: 'Rules: be brief.' },
    { role: 'system', content: 'Turn started (message).' },
    { role: 'system', content: 'Task goal: a fox\nBrief (version 2):\nA red fox, 20 seconds.' },
    { role: 'user', content: 'Draw it, be brief.' },
  ],
  tools: [{ name: 'image.generate', description: 'Draws an image', parameters: { type: 'object' } }],
  layers: [
    { layer: 'prefix', start: 0, end: 1, tokens: 5 },
    { layer: 'history', start: 1, end: 1, tokens: 0 },
    { layer: 'recent', start: 1, end: 2, tokens: 5 },
    { layer: 'tail', start: 2, end: 3, tokens: 9 },
    { layer: 'input', start: 3, end: 4, tokens: 5 },
  ],
});

describe('prompt patches', () => {
  it('rewrite a layer’s text, a tool’s description and the brief, and name what they changed', () => {
    const original = prompt();
    const patch = parsePromptPatch({
      patches: [
        { layer: 'prefix', find: 'be brief', replace: 'be thorough' },
        { tool: 'image.generate', description: 'Draws one image; ask before a second' },
        { brief: 'A blue fox, 10 seconds.' },
        { tool: 'video.generate', description: 'not offered here' },
      ],
    });

    const { prompt: patched, applied } = applyPromptPatch(original, patch, 'A red fox, 20 seconds.');

    expect(patched.messages.map((m) => m.content)).toEqual([
      'Rules: be thorough.',
      'Turn started (message).',
      'Task goal: a fox\nBrief (version 2):\nA blue fox, 10 seconds.',
      // Only the prefix layer was named: the person's words stay as they were
      'Draw it, be brief.',
    ]);
    expect(patched.tools[0].description).toBe('Draws one image; ask before a second');
    expect(applied).toEqual(['layer prefix: "be brief"', 'tool image.generate', 'brief']);
    // The rebuilt prompt itself is left as it was (it is compared with the stored one)
    expect(promptHash(original)).toBe(promptHash(prompt()));
  });

  it('a brief patch on a task without a brief changes nothing', () => {
    const { applied } = applyPromptPatch(prompt(), parsePromptPatch({ patches: [{ brief: 'x' }] }), null);

    expect(applied).toEqual([]);
  });
});

describe('a rebuilt prompt against the stored one', () => {
  it('the same messages and tools, however their keys were ordered, are reproduced', () => {
    const stored = prompt();
    const rebuilt = {
      ...prompt(),
      tools: [{ parameters: { type: 'object' }, description: 'Draws an image', name: 'image.generate' }],
    };

    expect(compareContext(rebuilt, stored)).toEqual({ status: 'reproduced', hash: promptHash(stored) });
  });

  it.each([
    ['the tail', (p: Prompt) => (p.messages[2] = { role: 'system', content: 'Task goal: a wolf' }), 'tail'],
    ['a tool description', (p: Prompt) => (p.tools = [{ ...p.tools[0], description: 'x' }]), 'prefix'],
    ['the input', (p: Prompt) => (p.messages[3] = { role: 'user', content: 'Draw two' }), 'input'],
  ])('a change in %s is context drift named by its layer', (_name, change, layer) => {
    const rebuilt = prompt();
    change(rebuilt);

    expect(compareContext(rebuilt, prompt())).toMatchObject({ status: 'context_drift', firstDifferingLayer: layer });
  });

  it('a stored prompt whose blob is gone cannot be compared', () => {
    expect(compareContext(prompt(), undefined)).toMatchObject({ status: 'stored_prompt_missing' });
  });
});
