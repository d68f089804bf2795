import fc from 'fast-check';
import type { DocumentInput } from './document-store.port';
import { InvalidDocumentError } from './document-store.errors';
import { documentBody, documentJson } from './document-validation';

/** The error a call throws, or undefined. */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  return undefined;
}

const fieldName = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => /^[a-z_][a-z0-9_]*$/i.test(k));
/** JSON documents as projections build them: nested objects and arrays, some fields undefined. */
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    tie('object'),
  ),
  object: fc.dictionary(fieldName, fc.oneof(tie('value'), fc.constant(undefined)), { maxKeys: 5 }),
}));

describe('documentJson: the body as JSON text, checked like documentBody, without a copy', () => {
  it('gives the text of documentBody’s copy for any JSON document (undefined fields dropped, key order kept)', () => {
    fc.assert(
      fc.property(jsonish.object, fc.string({ minLength: 1, maxLength: 20 }), (fields, id) => {
        const document = { ...fields, _id: id, _version: 7 } as DocumentInput;
        const { id: bodyId, body } = documentBody(document);
        const { id: jsonId, json } = documentJson(document);
        expect(jsonId).toBe(bodyId);
        expect(json).toBe(JSON.stringify(body));
        expect(JSON.parse(json)).not.toHaveProperty('_id');
        expect(JSON.parse(json)).not.toHaveProperty('_version');
      }),
      { numRuns: 300 },
    );
  });

  it('leaves the document as it was, and documentBody’s copy shares nothing with it', () => {
    const document = { _id: 'a', list: [1, { b: 2 }], nested: { c: 'x', gone: undefined } };
    const before = JSON.stringify(document);
    documentJson(document as unknown as DocumentInput);
    expect(JSON.stringify(document)).toBe(before);
    expect(document.nested).toHaveProperty('gone');
    const { body } = documentBody(document as unknown as DocumentInput);
    (document.list[1] as { b: number }).b = 3;
    expect(body).toEqual({ list: [1, { b: 2 }], nested: { c: 'x' } });
  });

  it('refuses what documentBody refuses, with the same message and path', () => {
    const deep: Record<string, unknown> = {};
    let level = deep;
    for (let i = 0; i < 101; i += 1) level = level.d = {};
    const bad: unknown[] = [
      { n: 1 },
      { _id: 1 },
      { _id: '' },
      { _id: 'x'.repeat(513) },
      ['a'],
      new Date(0),
      { _id: 'a', $set: { n: 1 } },
      { _id: 'a', 'a.b': 1 },
      { _id: 'a', '': 1 },
      { _id: 'a', 'nul\0': 1 },
      { _id: 'a', meta: { $inc: 1 } },
      { _id: 'a', list: [{ ok: 1 }, { 'x.y': 1 }] },
      { _id: 'a', n: Number.NaN },
      { _id: 'a', deep: { list: [1, [2, Number.POSITIVE_INFINITY]] } },
      { _id: 'a', at: new Date(0) },
      { _id: 'a', list: [1, undefined] },
      { _id: 'a', nested: { list: [{ f: () => 1 }] } },
      { _id: 'a', map: new Map() },
      { _id: 'a', deep },
    ];
    for (const document of bad) {
      const fromBody = thrown(() => documentBody(document as DocumentInput));
      const fromJson = thrown(() => documentJson(document as DocumentInput));
      expect(fromBody).toBeInstanceOf(InvalidDocumentError);
      expect(fromJson).toBeInstanceOf(InvalidDocumentError);
      const [b, j] = [fromBody, fromJson] as InvalidDocumentError[];
      expect({ message: j.message, path: j.path }).toEqual({ message: b.message, path: b.path });
    }
  });

  it('names the path of the first bad value', () => {
    const error = thrown(() => documentJson({ _id: 'a', steps: [{ usage: { tokens: Number.NaN } }] }));
    expect(error).toMatchObject({
      path: 'steps[0].usage.tokens',
      message: 'steps[0].usage.tokens: numbers must be finite',
    });
    expect(thrown(() => documentJson({ _id: 'a', calls: { ok: {}, 'a.b': {} } }))).toMatchObject({
      path: 'calls.a.b',
      message: 'Invalid field name "a.b" at calls',
    });
  });

  it('keeps a hole of an array as JSON has it (null), as before', () => {
    // eslint-disable-next-line no-sparse-arrays
    const document = { _id: 'a', list: [1, , 3] } as unknown as DocumentInput;
    expect(documentJson(document).json).toBe('{"list":[1,null,3]}');
    expect(JSON.stringify(documentBody(document).body)).toBe('{"list":[1,null,3]}');
  });
});
