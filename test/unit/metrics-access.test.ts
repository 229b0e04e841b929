// The one rule for who reads metrics (the API's /metrics and a worker's --metrics-port): the callers it refuses.
import { describe, expect, it } from 'vitest';
import { assertMetricsCaller, bearerOf } from '../../src/auth/metrics-access.ts';

const refusal = (run: () => void) => {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('metrics access', () => {
  it('without a token answers only loopback addresses', () => {
    const open = { token: undefined, production: false };
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(refusal(() => assertMetricsCaller({ bearer: undefined, address }, open)), address).toBeUndefined();
    for (const address of ['10.0.0.5', '192.168.1.2', '::ffff:10.0.0.5', 'fe80::1', '', undefined]) expect(refusal(() => assertMetricsCaller({ bearer: undefined, address }, open)), String(address)).toBe('FORBIDDEN');
  });

  it('with a token set, a loopback address alone is not enough', () => {
    const access = { token: 'tok', production: false };
    expect(refusal(() => assertMetricsCaller({ bearer: undefined, address: '127.0.0.1' }, access))).toBe('UNAUTHORIZED');
    expect(refusal(() => assertMetricsCaller({ bearer: 'tok', address: '10.0.0.5' }, access))).toBeUndefined();
  });

  it('reads only a bearer token', () => {
    expect(bearerOf('Bearer abc')).toBe('abc');
    expect(bearerOf('bearer abc')).toBe('abc');
    expect(bearerOf('Basic abc')).toBeUndefined();
    expect(bearerOf(undefined)).toBeUndefined();
  });
});
