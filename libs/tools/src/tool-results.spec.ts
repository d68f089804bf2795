import { ValidationError } from '@lomo/contracts';
import { errorResult, errorResultFromThrown } from './tool-results';
import { ToolFailure } from './tool-errors';

describe('tool results', () => {
  it('caps error messages at the 4 000 characters the event contract allows', () => {
    const result = errorResult('TOOL_FAILED', 'x'.repeat(10_000), false);
    expect(result.status === 'error' && result.error.message.length).toBe(4_000);
  });

  it('never produces an empty message', () => {
    expect(errorResult('TOOL_FAILED', '   ', false)).toEqual({
      status: 'error',
      error: { code: 'TOOL_FAILED', message: 'no message', retriable: false },
    });
  });

  it('keeps a LomoError code and maps anything else, even a non-Error, to TOOL_FAILED', () => {
    expect(errorResultFromThrown(new ValidationError('nope', []))).toMatchObject({
      error: { code: 'VALIDATION_FAILED', retriable: false },
    });
    expect(errorResultFromThrown('a string')).toEqual({
      status: 'error',
      error: { code: 'TOOL_FAILED', message: 'a string', retriable: false },
    });
  });

  it('refuses to build a ToolFailure whose code the event contract would reject', () => {
    expect(() => new ToolFailure('not-a-code', 'x', false)).toThrow(TypeError);
    expect(new ToolFailure('QUOTA_EXCEEDED', 'x', true).code).toBe('QUOTA_EXCEEDED');
  });
});
