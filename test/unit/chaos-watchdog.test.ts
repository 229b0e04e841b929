/**
 * The chaos run's watchdog: one phase at a time, each with its own budget, so a slow but moving run reaches its
 * verdict and a stuck one still ends; the budget after sending grows with how long sending really took.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { budgetsFor, PhaseWatchdog } from '../../chaos/watchdog.ts';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the phase watchdog', () => {
  it('fires when a phase outlives its budget, naming the phase', () => {
    const expired: string[] = [];
    const watchdog = new PhaseWatchdog((why) => expired.push(why));
    watchdog.enter('start-up', 10_000);
    vi.advanceTimersByTime(9_999);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['start-up took longer than 10 s']);
  });

  it('entering the next phase replaces the budget: only the phase that hangs ends the run', () => {
    const expired: string[] = [];
    const watchdog = new PhaseWatchdog((why) => expired.push(why));
    watchdog.enter('start-up', 10_000);
    vi.advanceTimersByTime(8_000);
    watchdog.enter('sending', 20_000);
    vi.advanceTimersByTime(15_000);
    expect(expired).toEqual([]);
    expect(watchdog.elapsedMs()).toBe(15_000);
    vi.advanceTimersByTime(5_000);
    expect(expired).toEqual(['sending took longer than 20 s']);
  });

  it('stop disarms it', () => {
    const expired: string[] = [];
    const watchdog = new PhaseWatchdog((why) => expired.push(why));
    watchdog.enter('cleanup', 1_000);
    watchdog.stop();
    vi.advanceTimersByTime(5_000);
    expect(expired).toEqual([]);
  });
});

describe('the budgets', () => {
  const input = { plannedSendingMs: 75_000, drainMs: 120_000, processes: 8, readyTimeoutMs: 180_000, maxRetryMs: 90_000 };

  it('after sending, the budget grows with how long sending took, never below the planned time', () => {
    const budgets = budgetsFor(input);
    expect(budgets.afterSendingMs(600_000) - budgets.afterSendingMs(100_000)).toBe(500_000);
    expect(budgets.afterSendingMs(10_000)).toBe(budgets.afterSendingMs(75_000));
    expect(budgets.afterSendingMs(75_000)).toBeGreaterThan(input.drainMs + input.plannedSendingMs);
  });

  it('start-up leaves every process its whole ready timeout; sending a stretch of its planned time', () => {
    const budgets = budgetsFor(input);
    expect(budgets.startupMs).toBeGreaterThan(input.processes * input.readyTimeoutMs);
    expect(budgets.sendingMs).toBeGreaterThan(4 * input.plannedSendingMs + input.maxRetryMs);
    expect(budgetsFor({ ...input, plannedSendingMs: 150_000 }).sendingMs).toBeGreaterThan(budgets.sendingMs);
  });
});
