/** The chaos run's flags (node:util parseArgs) and its --help. */
import os from 'node:os';
import { parseArgs } from 'node:util';

export interface ChaosOptions {
  requests: number;
  concurrency: number;
  rate: number;
  drainSeconds: number;
  seed: number;
  faults: boolean;
  keepLogs: boolean;
  stepMs: number;
  apiLogLevel: string;
  proveDetector: boolean;
  /** Where the work dir and the kept logs go. */
  tmpDir: string;
  /** The most the run's logs and evidence may take, in MB (live logs and what is kept). */
  logCapMb: number;
  /** Soak mode (`npm run soak`): steady load without faults for `minutes`, sampled, judged for leaks. */
  soak?: { minutes: number; sampleSeconds: number; warmupMinutes: number; plot: string | undefined };
}

export const HELP = `npm run chaos -- [options]     (or: node --import tsx chaos/main.ts [options])

Starts a private Redis and PostgreSQL (temporary, on free loopback ports; the machine's shared servers are
never touched), the OpenAI, Replicate, fal and Slack simulators, loopback notification receivers, \`vetted api\`,
\`vetted mcp --http\` and six \`vetted worker\` processes; sends a fixed number of requests while it kills
workers, the API and the MCP server, restarts Redis and PostgreSQL and makes the LLM and the providers misbehave,
and while people decide over HTTP, chat replies, MCP, Slack buttons and email links, claim and release reviews
and review tasks; waits for every acknowledged run to come to rest; then prints one table and one verdict line
per check (lost, executed twice, decisions and replies applied twice, notifications delivered twice per channel
and missing, events missed by followers, reminders or escalations sent twice) and exits 1 if any is not 0 (or
the harness itself failed), else 0.

Options:
  --requests <n>        requests to send (default 600)
  --concurrency <n>     requests in flight at most (default 20)
  --rate <n>            requests started per second; the load lasts requests/rate seconds and the faults are
                        spread over it (default 8)
  --drain-seconds <n>   after the load, how long to wait for every run to come to rest (default 120)
  --seed <n>            seed for the request mix and the reviewer's choices (default: random, printed)
  --step-ms <n>         simulated prediction time per status step; a prediction takes two (default 150)
  --no-faults           the same load with no faults: a baseline to compare against
  --api-log-level <l>   LOG_LEVEL of the API process (default warn: at info, \`vetted api\` logs every request,
                        which fills its capped log with thousands of lines a minute)
  --prove-detector      check the checker: before verifying, delete one completed run from the private
                        database and add a copy of one execution to a sim's log (fal or OpenAI when such a
                        run completed); the run must then report exactly 1 lost and 1 executed twice, and exit 1
  --keep-logs           keep the process logs and evidence even when the run passes (always kept on failure)
  --tmp-dir <dir>       where the work dir (servers, logs) and the kept logs go (default: the system temp dir);
                        the run refuses to start when it has less free space than the servers and the log cap need
  --log-cap-mb <n>      the most its logs and evidence may take, live and kept (default 200); a log past its share
                        stops growing, and kept files past the cap are listed in LEFT-OUT.txt instead of copied

However it ends (normally, an error, Ctrl-C, SIGTERM/SIGHUP, its output pipe closing, or being killed with
SIGKILL), the run stops its servers and processes (a detached reaper does it if the run itself was killed),
keeps its logs in at most one vetted-chaos-logs-* directory, and the next run removes whatever an earlier run
left behind.
Soak (\`npm run soak -- --minutes 30\`, the same processes and fail-safe, no faults):
  --soak                steady load for --minutes at --rate (give about half of what the machine sustains),
                        every request kind, the reviewer, chat replies, notifications and followers as in a chaos
                        run; samples every --sample-seconds process RSS, the API's heap and event-loop delay, Redis
                        memory and keys, PostgreSQL sizes, dead tuples and connections, and submit latency; prints
                        growth per hour after --warmup-minutes and fails on a leak (chaos/leak.ts)
  --minutes <n>         how long the soak sends (default 30)
  --sample-seconds <n>  how often it samples (default 60)
  --warmup-minutes <n>  left out of the growth figures (default a fifth of the soak, at most 5)
  --plot <file>         where the HTML chart of the samples goes (default: next to the kept logs)
  -h, --help            this text

Reading the table: chaos/README.md.`;

export function parseOptions(argv: string[]): ChaosOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      requests: { type: 'string', default: '600' },
      concurrency: { type: 'string', default: '20' },
      rate: { type: 'string', default: '8' },
      'drain-seconds': { type: 'string', default: '120' },
      seed: { type: 'string' },
      'step-ms': { type: 'string', default: '150' },
      'no-faults': { type: 'boolean', default: false },
      'keep-logs': { type: 'boolean', default: false },
      'api-log-level': { type: 'string', default: 'warn' },
      'prove-detector': { type: 'boolean', default: false },
      'tmp-dir': { type: 'string' },
      'log-cap-mb': { type: 'string', default: '200' },
      soak: { type: 'boolean', default: false },
      minutes: { type: 'string', default: '30' },
      'sample-seconds': { type: 'string', default: '60' },
      'warmup-minutes': { type: 'string' },
      plot: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  const soak = values.soak ? soakOptions(values) : undefined;
  const rate = positiveNumber('rate', values.rate, 1000);
  return {
    ...(soak ? { soak } : {}),
    // A soak sends for its minutes at its rate; a chaos run sends a fixed number.
    requests: soak ? Math.ceil(rate * soak.minutes * 60) : positiveInt('requests', values.requests, 100_000),
    concurrency: positiveInt('concurrency', values.concurrency, 1000),
    rate,
    drainSeconds: positiveInt('drain-seconds', values['drain-seconds'], 3600),
    seed: values.seed === undefined ? Math.floor(Math.random() * 1_000_000) : positiveInt('seed', values.seed, 2 ** 31, 0),
    stepMs: positiveInt('step-ms', values['step-ms'], 10_000, 0),
    faults: !values['no-faults'] && !soak,
    keepLogs: values['keep-logs'],
    proveDetector: values['prove-detector'],
    apiLogLevel: oneOf('api-log-level', values['api-log-level'], ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    tmpDir: values['tmp-dir'] ?? os.tmpdir(),
    logCapMb: positiveInt('log-cap-mb', values['log-cap-mb'], 100_000),
  };
}

function soakOptions(values: { minutes: string; 'sample-seconds': string; 'warmup-minutes'?: string; plot?: string }): NonNullable<ChaosOptions['soak']> {
  const minutes = positiveNumber('minutes', values.minutes, 24 * 60);
  return {
    minutes,
    sampleSeconds: positiveInt('sample-seconds', values['sample-seconds'], 3600),
    // A fifth of the soak, at most 5 minutes: start-up, JIT and pools filling are not growth.
    warmupMinutes: values['warmup-minutes'] === undefined ? Math.min(5, minutes / 5) : positiveNumber('warmup-minutes', values['warmup-minutes'], minutes),
    plot: values.plot,
  };
}

function oneOf(flag: string, raw: string, allowed: readonly string[]): string {
  if (!allowed.includes(raw)) throw new Error(`--${flag} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw;
}

function positiveInt(flag: string, raw: string, max: number, min = 1): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${flag} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

function positiveNumber(flag: string, raw: string, max: number): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > max) throw new Error(`--${flag} must be a number above 0 and at most ${max}, got "${raw}"`);
  return value;
}
