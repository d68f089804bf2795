import { ConcurrencyError } from '@lomo/contracts';
import { InvalidMessageError } from './errors';
import { describeHandlerError, serializeMessages, validateTopicSpecs } from './message-validation';

describe('message validation', () => {
  it('serializes JSON objects and lets absent optional fields through', () => {
    expect(serializeMessages([{ key: 'k', value: { a: 1, b: [null, 'x'], c: undefined } }])).toEqual([
      '{"a":1,"b":[null,"x"]}',
    ]);
  });

  it.each([
    ['an array value', { key: 'k', value: [1] }],
    ['a null value', { key: 'k', value: null }],
    ['a Date inside', { key: 'k', value: { at: new Date(0) } }],
    ['a Map inside', { key: 'k', value: { m: new Map([[1, 2]]) } }],
    ['NaN', { key: 'k', value: { n: Number.NaN } }],
    ['undefined in an array', { key: 'k', value: { list: [undefined] } }],
    ['a BigInt', { key: 'k', value: { n: BigInt(1) } }],
    ['an empty key', { key: '', value: {} }],
    ['a key over 1 KiB', { key: 'x'.repeat(1025), value: {} }],
    ['a non-string header', { key: 'k', value: {}, headers: { n: 1 } }],
  ])('refuses %s with a typed error naming the field', (_label, message) => {
    const run = () => serializeMessages([message as unknown as Parameters<typeof serializeMessages>[0][number]]);
    expect(run).toThrow(InvalidMessageError);
    try {
      run();
    } catch (error) {
      expect((error as InvalidMessageError).issues[0].path).toMatch(/^\[0\]\./);
      expect((error as InvalidMessageError).retriable).toBe(false);
    }
  });

  it('refuses a cyclic value', () => {
    const value: Record<string, unknown> = {};
    value.self = value;
    expect(() => serializeMessages([{ key: 'k', value }])).toThrow(InvalidMessageError);
  });

  it('checks topic names and partition counts as Kafka would', () => {
    expect(() => validateTopicSpecs([{ name: 'lomo.events.task', partitions: 12 }])).not.toThrow();
    expect(() => validateTopicSpecs([{ name: 'bad name', partitions: 1 }])).toThrow(InvalidMessageError);
    expect(() => validateTopicSpecs([{ name: 'ok', partitions: 0 }])).toThrow(InvalidMessageError);
    expect(() => validateTopicSpecs([{ name: 'ok', partitions: 1.5 }])).toThrow(InvalidMessageError);
  });

  it("keeps a typed error's code and names untyped ones HANDLER_FAILED", () => {
    expect(describeHandlerError(new ConcurrencyError('task-1', 3, 4))).toEqual({
      code: 'CONCURRENCY_CONFLICT',
      message: 'Stream task-1: expected revision 3, actual 4',
    });
    expect(describeHandlerError(new Error('boom'))).toEqual({ code: 'HANDLER_FAILED', message: 'boom' });
    expect(describeHandlerError('plain string')).toEqual({ code: 'HANDLER_FAILED', message: 'plain string' });
  });
});
