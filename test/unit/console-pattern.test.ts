import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { linearRegExp } from '../../console/src/review/pattern-engine.ts';

// The options the console's form validator gives AJV (form-validator.ts), as far as patterns go.
const ajv = new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp } });
const catastrophic = ajv.compile({ type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } });

describe("the console's pattern check", () => {
  it('runs a catastrophic pattern against a 30,001-character value to an answer (RE2, linear time)', () => {
    expect(catastrophic({ code: `${'a'.repeat(30_000)}!` })).toBe(false);
    expect(catastrophic.errors?.map((error) => error.keyword)).toEqual(['pattern']);
    expect(catastrophic({ code: 'a'.repeat(30_001) })).toBe(true);
  });

  it('matches as the server does: a pattern is searched for anywhere unless anchored', () => {
    expect(linearRegExp('b+', 'u').test('aabbcc')).toBe(true);
    expect(linearRegExp('^b+$', 'u').test('aabbcc')).toBe(false);
    expect(linearRegExp('^\\p{L}+$', 'u').test('éa')).toBe(true);
  });

  it('a pattern RE2 cannot run (lookahead) refuses nothing, since the server never checks one', () => {
    expect(linearRegExp('^(?=a)b', 'u').test('zzz')).toBe(true);
  });
});
