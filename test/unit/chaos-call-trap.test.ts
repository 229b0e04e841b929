/**
 * The kills around a fal or OpenAI call: the trap is armed only once the execute worker serves (a worker killed a
 * moment ago, still in its place until its restart, does not count), and a trap no call walked into is taken back.
 */
import { describe, expect, it } from 'vitest';
import { trapCall, type CallTrap } from '../../chaos/provider-faults.ts';
import { isServing } from '../../chaos/processes.ts';

const QUICK = { readyMs: 2000, callMs: 50 };

/** A trap that records what was done to it; with `callComes`, a call walks into it as soon as it is armed. */
function recordingTrap(what: string, callComes: boolean) {
  const done: string[] = [];
  const trap: CallTrap = {
    what,
    arm: () => done.push('arm'),
    disarm: () => done.push('disarm'),
    caught: () => callComes && done.includes('arm'),
  };
  return { trap, done };
}

describe('a kill around a provider call', () => {
  it('arms the trap only after the execute worker serves, and catches the call that comes', async () => {
    const { trap, done } = recordingTrap('fal submission', true);
    let serve: (serving: boolean) => void = () => undefined;
    const serving = new Promise<boolean>((resolve) => (serve = resolve));
    const waited: number[] = [];
    const caught = trapCall((ms) => (waited.push(ms), serving), trap, QUICK);

    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toEqual([]);
    serve(true);
    expect(await caught).toBeUndefined();
    expect(done).toEqual(['arm']);
    expect(waited).toEqual([QUICK.readyMs]);
  });

  it('arms nothing when the worker does not come back, and says so', async () => {
    const { trap, done } = recordingTrap('fal submission', false);
    expect(await trapCall(async () => false, trap, QUICK)).toBe('the execute worker did not serve within 2 s; nothing killed');
    expect(done).toEqual([]);
  });

  it('takes the hold back when no call comes, so a later call is not held for nothing', async () => {
    const { trap, done } = recordingTrap('OpenAI call', false);
    expect(await trapCall(async () => true, trap, QUICK)).toBe('no OpenAI call within 0.05 s; nothing killed');
    expect(done).toEqual(['arm', 'disarm']);
  });

  it('watches without a hold for a call that only has to be running', async () => {
    expect(await trapCall(async () => true, { what: 'fal request running', caught: () => true }, QUICK)).toBeUndefined();
    expect(await trapCall(async () => true, { what: 'fal request running', caught: () => false }, QUICK)).toBe('no fal request running within 0.05 s; nothing killed');
  });
});

describe('a fleet member serves', () => {
  const running = { exitCode: null, signalCode: null };

  it('once it said it was ready and while it runs', () => {
    expect(isServing({ ready: true, expectedExit: false, child: running })).toBe(true);
    expect(isServing({ ready: false, expectedExit: false, child: running })).toBe(false);
    expect(isServing(undefined)).toBe(false);
  });

  it('not once it was killed: dying, or dead and waiting for its restart', () => {
    expect(isServing({ ready: true, expectedExit: true, child: running })).toBe(false);
    expect(isServing({ ready: true, expectedExit: true, child: { exitCode: null, signalCode: 'SIGKILL' } })).toBe(false);
    expect(isServing({ ready: true, expectedExit: false, child: { exitCode: 1, signalCode: null } })).toBe(false);
  });
});
