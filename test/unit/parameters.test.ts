/** The parameter layer: what a query string or path parameter may be, whatever the route. */
import { describe, expect, it } from 'vitest';
import { param, pathParams, query } from '../../api/params.ts';
import { compileParameters, createParameterAjv, isRealInstant } from '../../api/plugins/parameters.ts';
import { loadContractSchemas } from '../../src/schema/contracts.ts';

const ajv = createParameterAjv();
for (const { schema } of loadContractSchemas()) ajv.addSchema(schema);

const listQuery = compileParameters(ajv, query({ limit: param.limit, since: param.instant, model: param.model, unclaimed: param.boolean, status: param.list(param.oneOf(['queued', 'failed']), 3) }), 'querystring', 'GET /x');

function refusal(result: ReturnType<typeof listQuery>): string {
  if (!('error' in result)) throw new Error(`accepted: ${JSON.stringify(result.value)}`);
  const error = result.error as Error & { validation?: { instancePath: string; message: string }[] };
  return error.validation ? error.validation.map((e) => `${e.instancePath} ${e.message}`).join('; ') : error.message;
}

describe('the parameter layer', () => {
  it('reads digits as bounded numbers, true/false as booleans, a repeated list parameter as a list, and fills defaults', () => {
    expect(listQuery({ limit: '20', unclaimed: 'true', status: ['queued', 'failed'] })).toEqual({ value: { limit: 20, unclaimed: true, status: ['queued', 'failed'] } });
    expect(listQuery({ status: 'queued' })).toEqual({ value: { limit: 50, status: ['queued'] } });
  });

  it.each(['1e309', 'Infinity', '-Infinity', 'NaN', '1e2', '0x10', '1_000', '20.0', ' 20', '', '９'])('refuses limit=%j as not a whole number', (limit) => {
    expect(refusal(listQuery({ limit }))).toMatch(/\/limit must be integer/);
  });

  it('refuses numbers out of bounds and a single-valued parameter given twice', () => {
    expect(refusal(listQuery({ limit: '201' }))).toMatch(/limit must be <= 200/);
    expect(refusal(listQuery({ limit: '0' }))).toMatch(/limit must be >= 1/);
    expect(refusal(listQuery({ limit: ['1', '2'] }))).toBe('querystring.limit is given 2 times; give it once');
  });

  it('refuses unknown parameters, naming every one and what the route takes', () => {
    expect(refusal(listQuery({ limit: '1', colour: 'red', size: '2' }))).toBe('querystring: colour, size are not parameters of this route (it takes limit, since, model, unclaimed, status)');
  });

  it('refuses enum values outside the list', () => {
    expect(refusal(listQuery({ status: ['queued', 'QUEUED'] }))).toMatch(/\/status\/1 must be equal to one of the allowed values/);
  });

  it('will not compile a numeric parameter without bounds', () => {
    expect(() => compileParameters(ajv, query({ n: { type: 'integer', minimum: 0 } }), 'querystring', 'GET /y')).toThrow(/GET \/y querystring\.n: a numeric parameter needs a minimum and a maximum/);
  });

  it('checks path parameters the same way', () => {
    const ids = compileParameters(ajv, pathParams({ id: param.uuid }), 'params', 'GET /runs/:id');
    expect(ids({ id: '0b0c4a7e-52a8-4d39-9a57-2f1d7f0e8b11' })).toEqual({ value: { id: '0b0c4a7e-52a8-4d39-9a57-2f1d7f0e8b11' } });
    expect(refusal(ids({ id: 'urn:uuid:0b0c4a7e-52a8-4d39-9a57-2f1d7f0e8b11' }))).toMatch(/\/id must match/);
  });
});

describe('isRealInstant (every date parameter)', () => {
  it.each([
    '2026-01-31T12:00:00Z', '2024-02-29T00:00:00Z', '2026-06-01T23:59:59.999+02:00', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '2026-01-01 10:00:00Z',
  ])('takes %s', (text) => expect(isRealInstant(text)).toBe(true));

  it.each([
    '0000-01-01T00:00:00Z', '2026-12-31T23:59:60Z', '2026-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01T24:00:00Z',
    '2026-01-01T00:00:00+24:00', '0001-01-01T00:00:00+01:00', '9999-12-31T23:00:00-02:00', '2026-01-01', '2026-01-01T00:00:00', 'yesterday', '+002026-01-01T00:00:00Z',
  ])('refuses %s', (text) => expect(isRealInstant(text)).toBe(false));

  it('a date-time parameter goes through it, beside the pattern the document states', () => {
    expect(refusal(listQuery({ since: '2026-02-30T00:00:00Z' }))).toMatch(/\/since must match format "date-time"/);
    expect(refusal(listQuery({ since: '0999-01-01T00:00:00Z' }))).toMatch(/\/since must match pattern/);
  });
});
