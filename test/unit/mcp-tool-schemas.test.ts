/**
 * The MCP tools' declared schemas, as a client receives them: self-contained (inlined from schemas/), objects at
 * the root, and every outputSchema admitting the ok shape and each of the MCP failure shapes, checked with the
 * SDK's own validator (the one its Client applies to every result).
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import { VettedError } from '../../src/errors.ts';
import { failureOf } from '../../src/mcp/results.ts';
import { TOOLS } from '../../src/mcp/server.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { createRedactor } from '../../src/observability/redact.ts';
import { inlineContract } from '../../src/schema/inline.ts';

const logger = createLogger({ level: 'silent', redact: createRedactor() });
const validators = new AjvJsonSchemaValidator();

const FAILURES: [string, unknown][] = [
  ['bad argument', new VettedError('INVALID_REQUEST', 'arguments: limit must be >= 1', { field: 'limit' })],
  ['edit still invalid', new VettedError('EDIT_INVALID', 'edits.scale must be <= 10', { field: 'edits.scale' })],
  ['blocking issues', new VettedError('BLOCKING_ISSUES', '1 blocking issue', { field: 'action', details: { issues: [{ path: '/image', code: 'missing_required', message: 'required', severity: 'blocking', suggestion: 'add it' }] } })],
  ['not found', new VettedError('REVIEW_NOT_FOUND', 'No review', { field: 'reviewId' })],
  ['stale', new VettedError('PAYLOAD_HASH_MISMATCH', 'changed', { field: 'payloadHash', details: { current: 'abc' } })],
  ['forbidden', new VettedError('FORBIDDEN', 'A submitter key may not do this (needs reviews:decide)')],
  ['unexpected', new Error('boom')],
];

describe('MCP tool schemas', () => {
  it.each(TOOLS.map((tool) => [tool.name, tool] as const))('%s: input and output are self-contained objects', (_name, tool) => {
    const input = inlineContract(tool.args.contract, tool.args.fragment);
    const output = inlineContract('mcp-tools', `#/definitions/${tool.result}`);
    for (const schema of [input, output]) {
      expect(schema.type).toBe('object');
      expect(JSON.stringify(schema)).not.toMatch(/"\$ref"|"\$id"/);
    }
    const admits = validators.getValidator(output as never);
    for (const [what, error] of FAILURES) {
      const failure = failureOf(error, { args: { reviewId: 'r1' }, idArgument: 'reviewId', logger, tool: tool.name });
      expect(admits(failure).valid, `${what}: ${JSON.stringify(failure)}`).toBe(true);
    }
    expect(admits({ status: 'ok', surprise: true }).valid).toBe(false);
  });

  it('maps each failure to its MCP failure shape by the HTTP status of its code', () => {
    const shapes = FAILURES.map(([, error]) => failureOf(error, { args: { reviewId: 'r1' }, idArgument: 'reviewId', logger, tool: 't' }));
    expect(shapes.map((shape) => shape.status)).toEqual(['error', 'error', 'error', 'not_found', 'conflict', 'forbidden', 'error']);
    expect(shapes[1]).toMatchObject({ issues: [{ path: '/scale' }] });
    expect(shapes[3]).toEqual({ status: 'not_found', id: 'r1', message: 'No review' });
    expect(shapes[6]).toMatchObject({ code: 'INTERNAL', message: expect.not.stringContaining('boom') });
  });
});
