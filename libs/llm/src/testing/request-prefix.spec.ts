import fc from 'fast-check';
import { prefixBytesOf, prefixPartsOf } from './request-prefix';

const body = (value: unknown, indent?: number) => Buffer.from(JSON.stringify(value, null, indent), 'utf8');

describe('prefixPartsOf', () => {
  it('takes the leading system messages and the tools array as exact substrings of the body', () => {
    const system = [
      { role: 'system', content: 'Rules: say "hi" {not a brace} [nor a bracket] \\ 中文 🎬' },
      { role: 'system', content: 'profile v3' },
    ];
    const tools = [{ type: 'function', function: { name: 'a__b', description: '"]}', parameters: {} } }];
    const raw = body({
      model: 'm',
      messages: [...system, { role: 'user', content: 'x' }, { role: 'system', content: 'late system' }],
      stream: false,
      tools,
      tool_choice: 'auto',
    });
    const parts = prefixPartsOf(raw);
    expect(parts.system.map((b) => b.toString('utf8'))).toEqual(system.map((m) => JSON.stringify(m)));
    expect(parts.tools?.toString('utf8')).toBe(JSON.stringify(tools));
    expect(prefixBytesOf(raw).toString('utf8')).toBe(
      `${JSON.stringify(system[0])}\n${JSON.stringify(system[1])}\n${JSON.stringify(tools)}\n`,
    );
  });

  it('has no tools part without tools, and no system part when the first message is not a system one', () => {
    const parts = prefixPartsOf(
      body({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'system', content: 's' },
        ],
      }),
    );
    expect(parts).toEqual({ system: [] });
  });

  it('finds the same parts in any JSON layout, exact bytes included (property)', () => {
    const message = fc.record({
      role: fc.constantFrom('system', 'user', 'assistant', 'tool'),
      content: fc.oneof(fc.string(), fc.constant(null)),
    });
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 6 }),
        fc.option(fc.array(fc.jsonValue(), { maxLength: 4 }), { nil: undefined }),
        fc.constantFrom(undefined, 2),
        (messages, tools, indent) => {
          const value = { model: 'm', messages, ...(tools !== undefined ? { tools } : {}), n: 1.5, ok: true };
          const parts = prefixPartsOf(body(value, indent));
          const firstOther = messages.findIndex((m) => m.role !== 'system');
          const leading = firstOther < 0 ? messages : messages.slice(0, firstOther);
          expect(parts.system.map((b) => JSON.parse(b.toString('utf8')) as unknown)).toEqual(leading);
          // Through JSON once, as the body went (-0 becomes 0).
          const sentTools: unknown = tools === undefined ? undefined : JSON.parse(JSON.stringify(tools));
          expect(parts.tools && (JSON.parse(parts.tools.toString('utf8')) as unknown)).toEqual(sentTools);
          if (indent === undefined) {
            expect(parts.system.map((b) => b.toString('utf8'))).toEqual(leading.map((m) => JSON.stringify(m)));
            if (tools !== undefined) expect(parts.tools?.toString('utf8')).toBe(JSON.stringify(tools));
          }
        },
      ),
    );
  });
});
