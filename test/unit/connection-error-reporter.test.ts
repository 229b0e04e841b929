import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { connectionErrorReporter } from '../../src/observability/connection-error-reporter.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { createRedactor } from '../../src/observability/redact.ts';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', redact: createRedactor([]), destination }) };
}

describe('connectionErrorReporter', () => {
  it('logs one line per source and interval, saying how many it held back', async () => {
    const { lines, logger } = capture();
    let clock = 0;
    const report = connectionErrorReporter(logger, { intervalMs: 10_000, now: () => clock });
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:6379');
    for (let i = 0; i < 50; i++) report('Redis (queues)', refused);
    report('Redis (build worker)', refused);
    clock = 10_000;
    report('Redis (queues)', refused);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => [line.source, line.heldBack])).toEqual([['Redis (queues)', 0], ['Redis (build worker)', 0], ['Redis (queues)', 49]]);
    expect(lines[0]?.msg).toBe('Redis (queues): connect ECONNREFUSED 127.0.0.1:6379; retrying (at most one such line per 10 s)');
  });
});
