import { describe, expect, it } from 'vitest';
import { formValidator, linearRegExp } from '../../console/src/review/form-validator.ts';

const catastrophic = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } } as const;

describe("the console's pattern check", () => {
  it('runs a catastrophic pattern against a 30,001-character value to an answer (RE2, linear time)', () => {
    const value = `${'a'.repeat(30_000)}!`;
    const { errors } = formValidator.validateFormData({ code: value }, catastrophic);
    expect(errors.map((error) => error.name)).toEqual(['pattern']);
    expect(formValidator.validateFormData({ code: 'a'.repeat(30_001) }, catastrophic).errors).toEqual([]);
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
