/**
 * The chaos run's own log: one line per thing that happened, stamped with the seconds since the run started,
 * so a fault, a crash and a run's events can be lined up afterwards. Goes to stderr (while anyone reads it) and
 * to the run's log file (capped); the table goes to stdout. Writing a line never throws.
 */
import type { OutputGuard } from '../src/util/output-guard.ts';
import type { CappedFile } from './footprint.ts';

const startedAt = Date.now();

let sink: { guard?: OutputGuard; file?: CappedFile } = {};

/** Where log lines go from now on: the guarded stderr, and the run's own log file. */
export function setLogSink(next: { guard?: OutputGuard; file?: CappedFile }): void {
  sink = next;
}

/** Seconds since the chaos run started, as `+12.3s`. */
export function elapsed(at = Date.now()): string {
  return `+${((at - startedAt) / 1000).toFixed(1)}s`;
}

export function log(message: string): void {
  const line = `[chaos ${new Date().toISOString().slice(11, 23)} ${elapsed()}] ${message}\n`;
  sink.file?.write(line);
  if (sink.guard) sink.guard.err(line);
  else process.stderr.write(line);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves when `check` returns true, polling every `everyMs`; false when `timeoutMs` passes first. */
export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 200): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  return false;
}

/** A small seeded PRNG (mulberry32), so a run's request mix and reviewer choices can be repeated with --seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
