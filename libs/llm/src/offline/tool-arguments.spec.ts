import { buildArguments, idCandidatesFrom } from './tool-arguments';

const context = { payload: 'call Bob', idCandidates: () => ['n-1'] };

describe('buildArguments', () => {
  it('fills required fields by type and content-like fields from the payload', () => {
    const parameters = {
      type: 'object',
      required: ['noteId', 'count', 'pinned', 'tags', 'format', 'extra'],
      properties: {
        noteId: { type: 'string' },
        text: { type: 'string' },
        title: { type: 'string' },
        count: { type: 'integer', minimum: 1 },
        pinned: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        format: { enum: ['md', 'json'] },
        extra: { type: ['string', 'null'] },
        optionalFlag: { type: 'boolean' },
        limit: { type: 'integer', default: 5 },
      },
    };
    expect(buildArguments(parameters, context)).toEqual({
      noteId: 'n-1',
      text: 'call Bob',
      title: 'call Bob',
      count: 10,
      pinned: false,
      tags: [],
      format: 'md',
      extra: 'call Bob',
    });
  });

  it('leaves optional id fields out when told to, and still fills required ones', () => {
    const parameters = {
      type: 'object',
      required: ['prompt', 'jobId'],
      properties: { prompt: { type: 'string' }, jobId: { type: 'string' }, referenceArtifactId: { type: 'string' } },
    };
    expect(buildArguments(parameters, context)).toEqual({
      prompt: 'call Bob',
      jobId: 'n-1',
      referenceArtifactId: 'n-1',
    });
    expect(buildArguments(parameters, { ...context, fillOptionalIds: false })).toEqual({
      prompt: 'call Bob',
      jobId: 'n-1',
    });
  });

  it('copes with a schema without properties', () => {
    expect(buildArguments({ type: 'object' }, context)).toEqual({});
  });
});

describe('idCandidatesFrom', () => {
  it('prefers ids in the user text, then ids from the latest tool results', () => {
    const candidates = idCandidatesFrom('drop n-3 please', [
      { role: 'tool', toolCallId: 'a', content: '{"noteId":"old"}' },
      { role: 'tool', toolCallId: 'b', content: '{"items":[{"noteId":"x1"},{"noteId":"x2"}]}' },
      { role: 'tool', toolCallId: 'c', content: 'plain text' },
    ]);
    expect(candidates('noteId')).toEqual(['n-3', 'x1', 'x2', 'old']);
  });
});
