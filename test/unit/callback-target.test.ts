/** Where a callbackUrl may point: public unicast only, unless VETTED_WEBHOOK_ALLOW_PRIVATE opens private networks. */
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { guardedLookup } from '../../src/delivery/callback-delivery.ts';
import { assertCallbackUrl, classifyAddress, hostRefusal, resolvedAddressRefusal } from '../../src/delivery/callback-target.ts';

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['[2001:4860:4860::8888]', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    // IPv6 forms that carry an IPv4 address are judged by it.
    ['::ffff:127.0.0.1', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:7f00:1::1', 'loopback'],
    ['::7f00:1', 'reserved'],
    ['172.32.0.1', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each(['hooks.example.com', 'localhost', 'example', ''])('%j is not an address', (name) => {
    expect(classifyAddress(name)).toBeUndefined();
  });
});

describe('assertCallbackUrl at intake', () => {
  it.each([
    'https://hooks.example.com/vetted',
    'http://8.8.8.8:8080/x',
    'https://[2606:4700:4700::1111]/x',
    // A name is judged at delivery, on what it resolves to.
    'https://internal.example.com/x',
    'http://localhost.example.com/x',
  ])('allows %s', (url) => {
    expect(assertCallbackUrl(url, strict).href).toBe(new URL(url).href);
  });

  it.each([
    ['http://127.0.0.1:9/x', 'loopback', '127.0.0.1'],
    ['http://localhost:6379/', 'loopback', 'localhost'],
    ['http://LOCALHOST./', 'loopback', 'localhost.'],
    ['http://api.localhost/', 'loopback', 'api.localhost'],
    ['http://[::1]:5432/', 'loopback', '[::1]'],
    ['http://[::ffff:127.0.0.1]/', 'loopback', '[::ffff:7f00:1]'],
    // The URL parser normalises the odd IPv4 spellings before we look.
    ['http://2130706433/', 'loopback', '127.0.0.1'],
    ['http://0x7f.1/', 'loopback', '127.0.0.1'],
    ['http://10.0.0.1/', 'private', '10.0.0.1'],
    ['http://172.16.5.4/', 'private', '172.16.5.4'],
    ['http://192.168.0.10/', 'private', '192.168.0.10'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata', '169.254.169.254'],
    ['http://[fe80::1]/', 'link-local', '[fe80::1]'],
    ['http://[fd00::1]/', 'unique-local', '[fd00::1]'],
    ['http://0.0.0.0:8080/', 'unspecified', '0.0.0.0'],
    ['http://100.100.100.200/', 'cloud metadata', '100.100.100.200'],
    ['http://239.1.1.1/', 'multicast', '239.1.1.1'],
    ['http://255.255.255.255/', 'broadcast', '255.255.255.255'],
    ['http://198.18.0.1/', 'reserved', '198.18.0.1'],
  ])('refuses %s (%s)', (url, addressClass, address) => {
    let thrown: unknown;
    try {
      assertCallbackUrl(url, strict);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ name: 'VettedError', code: 'INVALID_REQUEST', field: 'callbackUrl', details: { addressClass } });
    expect((thrown as Error).message).toContain(`${addressClass} `);
    expect((thrown as Error).message).toContain(`(${address})`);
    expect((thrown as Error).message).toContain('callbacks go to public addresses only');
  });

  it('says what to do, and offers the flag only where it would help', () => {
    expect(() => assertCallbackUrl('http://127.0.0.1:9/x', strict)).toThrow(
      'callbackUrl points at a loopback address (127.0.0.1); callbacks go to public addresses only (set VETTED_WEBHOOK_ALLOW_PRIVATE=true to allow private networks)',
    );
    expect(() => assertCallbackUrl('http://localhost/', strict)).toThrow('callbackUrl points at a loopback name (localhost)');
    expect(() => assertCallbackUrl('http://0.0.0.0/', strict)).toThrow('callbackUrl points at an unspecified address (0.0.0.0); callbacks go to public addresses only');
    expect(() => assertCallbackUrl('http://169.254.169.254/', strict)).not.toThrow(/VETTED_WEBHOOK_ALLOW_PRIVATE/);
  });

  it.each(['ftp://example.com/x', 'http://[/', 'not a url'])('refuses %j as not an http(s) URL', (url) => {
    expect(() => assertCallbackUrl(url, strict)).toThrow(expect.objectContaining({ field: 'callbackUrl', message: 'callbackUrl is not a valid http(s) URL' }));
  });

  it.each(['http://127.0.0.1:9/x', 'http://localhost:6379/', 'http://[::1]:5432/', 'http://10.0.0.1/', 'http://[fd00::1]/', 'http://100.64.0.1/', 'http://[::ffff:192.168.0.1]/'])(
    'allowPrivate lets %s through',
    (url) => {
      expect(() => assertCallbackUrl(url, lenient)).not.toThrow();
    },
  );

  it.each(['http://169.254.169.254/latest', 'http://[fd00:ec2::254]/', 'http://100.100.100.200/', 'http://[fe80::1]/', 'http://0.0.0.0/', 'http://224.0.0.1/', 'http://255.255.255.255/', 'http://240.0.0.1/'])(
    'allowPrivate still refuses %s (never a receiver; link-local is the cloud metadata service)',
    (url) => {
      expect(() => assertCallbackUrl(url, lenient)).toThrow(expect.objectContaining({ field: 'callbackUrl' }));
    },
  );
});

describe('addresses at delivery', () => {
  it('judges each resolved address, naming the host it came from', () => {
    expect(resolvedAddressRefusal('hooks.example.com', '93.184.216.34', strict)).toBeUndefined();
    expect(resolvedAddressRefusal('rebind.example.com', '127.0.0.1', strict)).toEqual({ addressClass: 'loopback', address: '127.0.0.1', hostname: 'rebind.example.com' });
    expect(resolvedAddressRefusal('rebind.example.com', '::ffff:10.1.2.3', strict)).toMatchObject({ addressClass: 'private' });
    expect(resolvedAddressRefusal('rebind.example.com', '127.0.0.1', lenient)).toBeUndefined();
    expect(resolvedAddressRefusal('weird.example.com', 'not-an-address', lenient)).toMatchObject({ addressClass: 'reserved' });
    expect(hostRefusal('hooks.example.com', strict)).toBeUndefined();
  });

  /** Runs the guard once with a fixed DNS answer; resolves with what node's socket would get. */
  function lookUp(answer: LookupAddress[], policy: { allowPrivate: boolean }, all: boolean) {
    const lookup = guardedLookup(policy, async () => answer);
    return new Promise<{ error: Error | null; address: string | LookupAddress[]; family?: number }>((resolve) => {
      lookup('hooks.example.com', { all }, (error, address, family) => resolve({ error, address, family }));
    });
  }

  it('hands node the checked addresses, in the shape it asked for', async () => {
    const answer = [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800:220:1::1', family: 6 }];
    expect(await lookUp(answer, strict, true)).toEqual({ error: null, address: answer, family: undefined });
    expect(await lookUp(answer, strict, false)).toEqual({ error: null, address: '93.184.216.34', family: 4 });
  });

  it('refuses the connection when any answer is not allowed (DNS rebinding)', async () => {
    const { error } = await lookUp([{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }], strict, true);
    expect(error).toMatchObject({ name: 'VettedError', field: 'callbackUrl' });
    expect(error?.message).toContain('callbackUrl host hooks.example.com resolves to a loopback address (127.0.0.1)');
    expect((await lookUp([{ address: '169.254.169.254', family: 4 }], lenient, false)).error).toMatchObject({ details: { addressClass: 'cloud metadata' } });
    expect((await lookUp([{ address: '10.0.0.7', family: 4 }], lenient, false)).error).toBeNull();
  });

  it('an empty answer is a (retryable) lookup failure, not a refusal', async () => {
    const { error } = await lookUp([], strict, false);
    expect(error).toMatchObject({ code: 'ENOTFOUND' });
    expect(error?.name).toBe('Error');
  });
});

describe('VETTED_WEBHOOK_ALLOW_PRIVATE', () => {
  it('is off by default and reads true / false', () => {
    expect(loadConfig({}).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ VETTED_WEBHOOK_ALLOW_PRIVATE: 'true' }).webhookAllowPrivate).toBe(true);
    expect(loadConfig({ VETTED_WEBHOOK_ALLOW_PRIVATE: 'false' }).webhookAllowPrivate).toBe(false);
    expect(() => loadConfig({ VETTED_WEBHOOK_ALLOW_PRIVATE: 'sometimes' })).toThrow(/VETTED_WEBHOOK_ALLOW_PRIVATE/);
  });
});
