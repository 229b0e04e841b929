/**
 * `npm run chaos`: the whole pipeline, as separate processes, under load and faults; then proof that no
 * acknowledged run was lost and no payload executed twice. Phases:
 *
 *   1. private Redis + PostgreSQL (services.ts), simulators, `vetted migrate`, API keys
 *   2. `vetted api`, `vetted mcp --http` and six `vetted worker` processes (processes.ts)
 *   3. load (load.ts) while the faults (faults.ts) happen and people decide (reviewer.ts: HTTP, MCP, chat,
 *      claims, review tasks, Slack clicks and email links)
 *   4. drain and verify (verify.ts), print the table (report.ts), clean up, exit 0 / 1
 *
 * Everything it starts is its own and everything is removed at the end, however the run ends: normally, on an
 * error, on SIGINT/SIGTERM/SIGHUP, when nobody reads its output any more (EPIPE), or, if it is killed outright,
 * by its reaper (reaper.ts), a detached process that outlives it. What it keeps is bounded: its logs stop at a
 * cap, they are kept in one directory per run, and it refuses to start without the room it needs. Every loop is
 * bounded, and a watchdog (watchdog.ts) ends the run if a phase outlives its budget anyway.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { createDb } from '../src/db/client.ts';
import { createQueues, type QueueSet } from '../src/queue/queues.ts';
import { parseRedisUrl } from '../src/redis-url.ts';
import { createApiKeysRepository } from '../src/db/api-keys-repository.ts';
import { startSimServers, type SimServers } from '../src/sim/index.ts';
import type { FalSim } from '../src/sim/fal-sim.ts';
import { guardOutput, type OutputGuard } from '../src/util/output-guard.ts';
import { assertFreeSpace, CappedFile, SERVER_FOOTPRINT_BYTES } from './footprint.ts';
import { KEPT_LOGS_PREFIX, removeLeftovers, WORK_DIR_PREFIX } from './leftovers.ts';
import { runFaults, type FaultRecord } from './faults.ts';
import { driveLoad, type Submission } from './load.ts';
import { errorMessage, log, seededRandom, setLogSink, waitUntil } from './log.ts';
import { notificationsMissingCheck } from './verdicts.ts';
import { planRequests, tagOf, type RequestKind } from './mix.ts';
import { HELP, parseOptions, type ChaosOptions } from './options.ts';
import { Fleet, FLEET_SIZE, READY_TIMEOUT_MS } from './processes.ts';
import { outcomeOf, renderReport } from './report.ts';
import { Reviewer } from './reviewer.ts';
import { readState, tearDown, writeState, type RunState } from './run-state.ts';
import { freePort, PrivatePostgres, PrivateRedis } from './services.ts';
import { connect, drain, evidence, exportTables, findStuck, stageTimings, verify, type Verdict } from './verify.ts';
import { copyCapped } from './footprint.ts';
import { appliedDecisions, appliedReplies, owedNotifications, verdictLines } from './verdict-facts.ts';
import { Follower, judgeFollowers } from './followers.ts';
import { SoakSampler } from './soak-sampler.ts';
import { judgeSoak, latencySeries, renderSoakHtml, renderSoakTable, seriesOf } from './soak-report.ts';
import { NOTIFICATION_CHANNELS, startReceivers, type Receivers } from './receivers.ts';
import { configureNotifications, NOTIFIED_EVENTS } from './notification-setup.ts';
import { createReviewersRepository } from '../src/db/reviewers-repository.ts';
import { SIM_SLACK_BOT_TOKEN, SIM_SLACK_SIGNING_SECRET, startSlackSim, type SlackSim } from '../src/sim/slack-sim.ts';
import { McpClient } from './mcp-client.ts';
import { MessageDeciders } from './message-deciders.ts';
import { Tasker } from './tasker.ts';
import { appliedTaskReviews, slaSteps } from './verdict-facts.ts';
import { ESCALATION_TEAM } from './mix.ts';
import { startFalForChaos } from './provider-faults.ts';
import { simExecutions, type SimExecution } from './sim-executions.ts';
import { budgetsFor, PhaseWatchdog, type Budgets } from './watchdog.ts';

const TENANT = 'chaos';
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A request is retried (same requestKey) for at most this long before the load gives up on it. */
const MAX_RETRY_SECONDS = 90;
/** When the watchdog has ended the run and its cleanup hangs too, exit anyway after this; the reaper stops what is left. */
const ABORT_EXIT_MS = 150_000;
/** One acknowledged run in this many gets an event-stream follower, up to MAX_FOLLOWERS streams in all. */
const RUN_FOLLOWER_EVERY = 5;
const MAX_FOLLOWERS = 24;
/** After the truth is read, how long the followers get at most to receive the newest events (a loaded API is slow to send them). */
const FOLLOWER_CATCH_UP_MS = 60_000;
/** How long notices still on their way get to arrive before the missing ones are counted. */
const NOTICE_WAIT_MS = 90_000;
/** One acknowledged run in this many is joined by a review task. */
const TASK_EVERY = 10;
/** The Slack users of the tenant's reviewers (people.ts clicks as them). */
const SLACK_USERS = ['U0CHAOSA', 'U0CHAOSG'];

/** What has been started so far, torn down in reverse by {@link cleanup}. */
interface Started {
  root: string;
  logDir: string;
  /** What the reaper and the next run read (run-state.ts); updated as things start. */
  state: RunState;
  redis?: PrivateRedis;
  postgres?: PrivatePostgres;
  sims?: SimServers;
  fal?: FalSim;
  slack?: SlackSim;
  receivers?: Receivers;
  fleet?: Fleet;
  followers?: Follower[];
  reviewer?: Reviewer;
  pool?: pg.Pool;
  queues?: QueueSet;
}

let cleaningUp: Promise<void> | undefined;
let aborting: Promise<void> | undefined;
let output: OutputGuard | undefined;
/** The run's state, for the abort path (set once the work dir exists). */
let current: Started | undefined;

const MB = 1024 * 1024;

async function main(): Promise<number> {
  // A closed pipe (the reader went away) ends the run cleanly, once; after that nothing more is written to it.
  output = guardOutput((why) => {
    if (current) void abort(current, `nobody reads the output any more (${why})`);
    else process.exit(1);
  });
  setLogSink({ guard: output });
  let options: ChaosOptions | 'help';
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    output.err(`${errorMessage(error)}\n\n${HELP}\n`);
    return 2;
  }
  if (options === 'help') {
    output.out(`${HELP}\n`);
    return 0;
  }
  const logCapBytes = options.logCapMb * MB;
  try {
    await removeLeftovers(options.tmpDir);
    assertFreeSpace(options.tmpDir, logCapBytes + SERVER_FOOTPRINT_BYTES);
  } catch (error) {
    log(`cannot start: ${errorMessage(error)}`);
    return 1;
  }
  const started = openWorkDir(options.tmpDir, logCapBytes);
  current = started;
  trapSignals(started);
  startReaper(started.root);
  const budgets = budgetsFor({
    plannedSendingMs: (options.requests / options.rate) * 1000, drainMs: options.drainSeconds * 1000,
    processes: FLEET_SIZE, readyTimeoutMs: READY_TIMEOUT_MS, maxRetryMs: MAX_RETRY_SECONDS * 1000,
  });
  const watchdog = new PhaseWatchdog((why) => void abort(started, why));
  watchdog.enter('start-up', budgets.startupMs);
  try {
    return await chaosRun(options, started, { watchdog, budgets });
  } catch (error) {
    log(`harness failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    keepLogs(started, 'harness failure');
    return 1;
  } finally {
    watchdog.enter('cleanup', budgets.cleanupMs);
    await cleanup(started);
    watchdog.stop();
  }
}

/** The run's work dir, its log file, and its state file (which the reaper watches). */
function openWorkDir(tmpDir: string, logCapBytes: number): Started {
  const root = mkdtempSync(path.join(tmpDir, WORK_DIR_PREFIX));
  // The postgres OS user must reach its data directory inside.
  chmodSync(root, 0o711);
  const logDir = path.join(root, 'logs');
  mkdirSync(logDir);
  setLogSink({ guard: output, file: new CappedFile(path.join(logDir, 'chaos.log'), logCapBytes / 10) });
  const keepLogsTo = path.join(tmpDir, `${KEPT_LOGS_PREFIX}${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  const state: RunState = { ownerPid: process.pid, root, logDir, keepLogsTo, logCapBytes, pids: {}, done: false };
  writeState(state);
  return { root, logDir, state };
}

/** The detached watchdog that stops everything if this process dies without doing it (reaper.ts). */
function startReaper(root: string): void {
  const reaper = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'chaos', 'reaper.ts'), root, String(process.pid)], {
    cwd: REPO_ROOT, detached: true, stdio: 'ignore',
  });
  reaper.unref();
}

/** Records a started process (or server) in the state file, for the reaper. */
function recordPid(started: Started, name: string, pid: number | undefined): void {
  if (pid === undefined) return;
  started.state.pids[name] = pid;
  writeState(started.state);
}

async function chaosRun(options: ChaosOptions, started: Started, guard: { watchdog: PhaseWatchdog; budgets: Budgets }): Promise<number> {
  const t0 = Date.now();
  log(`seed ${options.seed}; ${options.requests} requests at ${options.rate}/s, ${options.concurrency} in flight at most; faults ${options.faults ? 'on' : 'OFF'}; work dir ${started.root}`);
  const env = await startServices(options, started);
  const keys = await createKeys(env.DATABASE_URL as string);
  const apiPort = await freePort();
  // Email decision links lead to the API beside the console.
  env.VETTED_CONSOLE_URL = `http://127.0.0.1:${apiPort}/console`;
  const fleet = new Fleet({
    env, apiEnv: { LOG_LEVEL: options.apiLogLevel }, apiPort, mcpPort: await freePort(), logDir: started.logDir, respawnDelayMs: 1500,
    logCapBytes: started.state.logCapBytes / 10, onSpawn: (role, pid) => recordPid(started, role, pid),
  });
  started.fleet = fleet;
  await fleet.startAll();
  log(`api on ${fleet.apiUrl}; mcp on ${fleet.mcpUrl}; workers: extract, assemble, build, validate, execute, all`);
  await configureNotifications(fleet.apiUrl, keys.admin, started.receivers as Receivers);

  const followers = [new Follower('review feed 1', `${fleet.apiUrl}/api/reviews/events`, keys.reviewer, undefined), new Follower('review feed 2', `${fleet.apiUrl}/api/reviews/events`, keys.reviewer, undefined)];
  started.followers = followers;
  for (const follower of followers) follower.start();
  const pool = connect(env.DATABASE_URL as string);
  started.pool = pool;
  guard.watchdog.enter('sending', guard.budgets.sendingMs);
  const sampler = options.soak ? new SoakSampler({ apiUrl: fleet.apiUrl, redisUrl: env.REDIS_URL as string, pool, pids: () => fleet.pids() }, options.soak.sampleSeconds * 1000) : undefined;
  sampler?.start();
  const { submissions, faults, reviewer, tasker, deciders, mcp } = await loadUnderFaults(options, started, fleet, keys, (runId, n) => {
    // Every few acknowledged runs gets a follower of its own event stream, from its first event.
    if (n % RUN_FOLLOWER_EVERY !== 0 || followers.length >= MAX_FOLLOWERS) return;
    const follower = new Follower(`run ${runId}`, `${fleet.apiUrl}/api/runs/${runId}/events`, keys.submitter, runId);
    followers.push(follower);
    follower.start();
  });
  await sampler?.stop();
  const sentMs = guard.watchdog.elapsedMs();
  guard.watchdog.enter('drain and verification', guard.budgets.afterSendingMs(sentMs));
  log(`watchdog: sending took ${(sentMs / 1000).toFixed(0)} s; drain and verification may take ${(guard.budgets.afterSendingMs(sentMs) / 1000).toFixed(0)} s`);
  // The chaos run's own view of the queues, to tell a run waiting on a retry from one nothing will move.
  const queues = createQueues(parseRedisUrl(env.REDIS_URL as string), env.VETTED_QUEUE_PREFIX as string);
  started.queues = queues;
  const runIds = submissions.flatMap((s) => (s.runId ? [s.runId] : []));
  await drain(pool, runIds, options.drainSeconds * 1000);
  const stuckCheck = await findStuck(pool, queues, runIds);
  await reviewer.stop();
  const followed = await judgeFollowers(pool, TENANT, followers, FOLLOWER_CATCH_UP_MS);
  log(`chat replies: ${[...reviewer.chatter.outcomes].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
  log(`event-stream followers: ${followers.length}, ${followers.reduce((n, f) => n + f.seen.length, 0)} events seen, ${followers.reduce((n, f) => n + f.reconnects, 0)} reconnects`);
  log(`notifications received: ${(started.receivers as Receivers).received.length}; refused on purpose: ${[...(started.receivers as Receivers).refused].map(([c, n]) => `${c} ${n}`).join(', ')}`);
  log(`claims: ${counts(reviewer.stats.claims)}; decided from messages: ${counts(deciders.outcomes)}`);
  log(`review tasks: ${tasker.acknowledged.size} acknowledged; ${counts(tasker.outcomes)}; MCP calls sent again after no answer: ${mcp.resent}`);
  const created = simExecutions({ replicate: (started.sims as SimServers).replicate, fal: started.fal, openai: (started.sims as SimServers).openai });
  if (options.proveDetector) await plantFaults(pool, created);
  const verdict = await verify(pool, TENANT, submissions, created, stuckCheck);

  const harnessErrors = faults.filter((f) => f.error && /restart/.test(f.name)).map((f) => `${f.name} failed: ${f.error}`);
  const receivers = started.receivers as Receivers;
  const tasksMissing = await missingTasks(pool, tasker);
  const owed = await owedOnceDelivered(pool, receivers);
  log(`notices refused once and overtaken by their review's expiry (not owed): ${owed.overtaken}`);
  const lines = verdictLines({ ...verdict, missing: [...verdict.missing, ...tasksMissing] }, {
    decisions: {
      attempts: [...reviewer.stats.attempts, ...reviewer.chatter.attempts, ...deciders.attempts, ...tasker.attempts],
      applied: [...(await appliedDecisions(pool, TENANT)), ...(await appliedTaskReviews(pool, TENANT))],
    },
    slaSteps: await slaSteps(pool, TENANT),
    replies: { sent: reviewer.chatter.sent, applied: await appliedReplies(pool, TENANT) },
    followers: followed,
    notifications: { channels: [...NOTIFICATION_CHANNELS], received: receivers.received, owed: owed.owed },
  });
  const report = { requests: options.requests, seed: options.seed, durationMs: Date.now() - t0, verdict, lines, faults, crashes: fleet.crashes, failedStarts: fleet.failedStarts, reviewer: reviewer.stats, harnessErrors };
  const outcome = outcomeOf(report);
  const keepWhy = !outcome.passed ? 'the run failed' : fleet.crashes.length > 0 ? 'a process crashed' : options.keepLogs ? 'kept on request' : undefined;
  if (keepWhy) {
    await writeEvidence(pool, verdict, created, submissions, started);
    // What each follower was handed and what it should have seen, for a follower that missed or repeated one.
    writeFileSync(path.join(started.logDir, 'evidence', 'followers.json'), JSON.stringify(followed.map((f) => ({ ...f.log, truth: f.truth, fromStart: f.fromStart }))));
  }
  output?.out(`\n${renderReport(report)}\n`);
  const soakPassed = sampler && options.soak ? finishSoak(options, sampler, submissions) : true;
  if (keepWhy) keepLogs(started, keepWhy);
  return outcome.passed && soakPassed ? 0 : 1;
}

function counts(map: ReadonlyMap<string, number>): string {
  return [...map].map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
}

/**
 * What the run owes the receivers, once what is still on its way had time to arrive: a notice whose job waits
 * in a retry's backoff, or one the reconciler is about to restore, arrives within NOTICE_WAIT_MS; a lost one
 * never does, so waiting hides nothing.
 */
async function owedOnceDelivered(pool: pg.Pool, receivers: Receivers): Promise<Awaited<ReturnType<typeof owedNotifications>>> {
  let owed = await owedNotifications(pool, TENANT, NOTIFICATION_CHANNELS, NOTIFIED_EVENTS);
  await waitUntil(async () => {
    owed = await owedNotifications(pool, TENANT, NOTIFICATION_CHANNELS, NOTIFIED_EVENTS);
    return notificationsMissingCheck(owed.owed, receivers.received).count === 0;
  }, NOTICE_WAIT_MS, 2000);
  return owed;
}

/** Acknowledged review tasks that are not in PostgreSQL: as lost as a run would be. */
async function missingTasks(pool: pg.Pool, tasker: Tasker): Promise<string[]> {
  const ids = [...tasker.acknowledged.values()];
  const { rows } = await pool.query<{ id: string }>('select id::text from tasks where id = any($1::uuid[])', [ids]);
  const stored = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !stored.has(id)).map((id) => `task ${id}`);
}

/** The soak's figures: growth per hour after the warm-up, the leak verdict, and the HTML chart of the samples. */
function finishSoak(options: ChaosOptions, sampler: SoakSampler, submissions: Submission[]): boolean {
  const soak = options.soak as NonNullable<ChaosOptions['soak']>;
  const acks = submissions.flatMap((s) => (s.ackAt ? [{ sentMinute: (s.sentAt - sampler.startedAt) / 60_000, ms: s.ackAt - s.sentAt }] : []));
  const series = seriesOf(sampler.samples, latencySeries(acks));
  const findings = judgeSoak(series, soak.warmupMinutes);
  const plot = soak.plot ?? path.join(options.tmpDir, `vetted-soak-${new Date().toISOString().replace(/[:.]/g, '-')}.html`);
  const title = `Vetted soak: ${soak.minutes} min at ${options.rate} requests/s, ${sampler.samples.length} samples, warm-up ${soak.warmupMinutes} min`;
  writeFileSync(plot, renderSoakHtml(title, series, findings, soak.warmupMinutes));
  const leaks = findings.filter((f) => f.leaking);
  output?.out(`\n${title}\n${renderSoakTable(series, findings, soak.warmupMinutes)}\nleaks: ${leaks.length}${leaks.map((l) => `\n    e.g. ${l.name}: ${l.why}`).join('')}\nchart: ${plot}\n`);
  return leaks.length === 0;
}

/** The reviewer starts, then the load runs with the faults on their schedule beside it. */
async function loadUnderFaults(options: ChaosOptions, started: Started, fleet: Fleet, keys: { submitter: string; reviewer: string; admin: string }, onAcknowledged: (runId: string, n: number) => void) {
  let acknowledged = 0;
  const random = seededRandom(options.seed);
  const salt = options.seed.toString(36).slice(-4);
  const plan = planRequests(options.requests, random, salt);
  const kinds = new Map<string, RequestKind>();
  const mcp = new McpClient(() => fleet.mcpUrl, keys.reviewer);
  const tasker = new Tasker({ apiUrl: fleet.apiUrl, repoRoot: REPO_ROOT, submitterKey: keys.submitter, reviewerKey: keys.reviewer, adminKey: keys.admin, mcp, random, salt });
  await tasker.registerType();
  const deciders = new MessageDeciders({ apiUrl: fleet.apiUrl, slack: started.slack as SlackSim, slackUsers: SLACK_USERS, random, slackShare: 0.2, emailShare: 0.15 });
  const reviewer = new Reviewer({
    apiUrl: fleet.apiUrl, reviewerKey: keys.reviewer, random, kindOf: (id) => kinds.get(id), pollMs: 500, maxParallel: 8,
    mcp, tasker, messages: { deciders, receivers: started.receivers as Receivers },
  });
  started.reviewer = reviewer;
  reviewer.start();
  const taskSubmissions: Promise<void>[] = [];
  const loadStartedAt = Date.now();
  const ctx = { fleet, redis: started.redis as PrivateRedis, postgres: started.postgres as PrivatePostgres, sims: started.sims as SimServers, fal: started.fal as FalSim, mcp };
  const faultsDone: Promise<FaultRecord[]> = options.faults ? runFaults(ctx, loadStartedAt, (options.requests / options.rate) * 1000, () => cleaningUp !== undefined) : Promise.resolve([]);
  const submissions = await driveLoad(plan, {
    apiUrl: fleet.apiUrl, submitterKey: keys.submitter, ratePerSecond: options.rate, concurrency: options.concurrency,
    maxTries: 40, maxRetrySeconds: MAX_RETRY_SECONDS, random, onAcknowledged: (s) => {
      kinds.set(s.runId as string, s.planned.kind);
      onAcknowledged(s.runId as string, ++acknowledged);
      if (acknowledged % TASK_EVERY === 0) taskSubmissions.push(tasker.submit());
    },
  });
  await Promise.all(taskSubmissions);
  const faults = await faultsDone;
  log(`load done in ${((Date.now() - loadStartedAt) / 1000).toFixed(1)} s: ${submissions.filter((s) => s.runId).length} of ${submissions.length} acknowledged; ${faults.length} faults injected`);
  // A process killed late in the load is back before the drain starts.
  await fleet.settle();
  return { submissions, faults, reviewer, tasker, deciders, mcp };
}

/**
 * --prove-detector: one acknowledged, completed run deleted from PostgreSQL (a loss) and one execution
 * recorded a second time in a sim's log (a double: at fal or OpenAI when such a run completed, else at
 * Replicate), so a run can show that the checks catch both.
 */
async function plantFaults(pool: pg.Pool, created: SimExecution[]): Promise<void> {
  const { rows } = await pool.query<{ id: string; request_key: string; provider: string }>(
    "select id, request_key, provider from runs where status = 'completed' and tenant_id = $1 order by provider = 'replicate', created_at limit 2", [TENANT],
  );
  const [double, lose] = rows;
  if (!lose || !double) throw new Error('--prove-detector needs two completed runs');
  await pool.query('delete from runs where id = $1', [lose.id]);
  await pool.query('delete from run_documents where run_id = $1', [lose.id]);
  const original = created.find((p) => tagOf(p.input) === double.request_key);
  if (!original) throw new Error(`--prove-detector: no execution at a sim for run ${double.id}`);
  created.push({ ...original, id: `${original.id}-planted` });
  log(`prove-detector: deleted run ${lose.id} from PostgreSQL; added a second execution at ${original.provider} for run ${double.id}`);
}

/** Private Redis and PostgreSQL, the simulators, and the migrated database; returns the children's environment. */
async function startServices(options: ChaosOptions, started: Started): Promise<Record<string, string>> {
  const redis = new PrivateRedis(await freePort(), path.join(started.root, 'redis'), { logCapBytes: started.state.logCapBytes / 10, onStart: (pid) => recordPid(started, 'redis', pid) });
  started.redis = redis;
  await redis.start();
  const postgres = new PrivatePostgres(await freePort(), path.join(started.root, 'pg'));
  started.postgres = postgres;
  started.state.postgresDataDir = postgres.dataDirectory;
  writeState(started.state);
  await postgres.init();
  await postgres.start();
  log(`private redis on ${redis.port}, private postgres on ${postgres.port}`);
  // Slow answers (sim:slow, the "LLM slow" fault) take 2.5 s, inside the 6 s client timeout: slow, not failed.
  const sims = await startSimServers({ replicate: { stepMs: options.stepMs }, openai: { slowMs: 2500 } });
  started.sims = sims;
  const fal = await startFalForChaos();
  started.fal = fal.fal;
  const receivers = await startReceivers();
  started.receivers = receivers;
  const slack = await startSlackSim();
  started.slack = slack;
  const env: Record<string, string> = {
    ...sims.env,
    // The fal and openai providers run the mix's fal and OpenAI models at the sims (provider-faults.ts).
    ...fal.env,
    // The Slack app: the waiting message carries Approve/Reject, clicks come back signed to the API.
    VETTED_SLACK_SIGNING_SECRET: SIM_SLACK_SIGNING_SECRET,
    VETTED_SLACK_BOT_TOKEN: SIM_SLACK_BOT_TOKEN,
    VETTED_SLACK_API_URL: slack.apiUrl,
    // Notifications go to the loopback receivers: private addresses allowed, email to the local SMTP server.
    VETTED_SMTP_URL: receivers.smtpUrl,
    VETTED_WEBHOOK_ALLOW_PRIVATE: 'true',
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    VETTED_QUEUE_PREFIX: 'chaos',
    VETTED_BUILDER: 'openai',
    VETTED_PROVIDER: 'replicate',
    // Lost work must be found within the run: look every 2 s, at runs untouched for 3 s.
    VETTED_RECONCILE_INTERVAL_MS: '2000',
    VETTED_RECONCILE_GRACE_MS: '3000',
    VETTED_REPLICATE_POLL_MS: '100',
    // sim:hang predictions are given up on (canceled, run failed) after 6 s.
    VETTED_REPLICATE_TIMEOUT_MS: '6000',
    VETTED_OPENAI_TIMEOUT_MS: '6000',
    VETTED_OPENAI_MAX_RETRIES: '2',
    // One submitter key sends every request: the per-key limit would be the bottleneck, not the pipeline.
    VETTED_RATE_LIMIT_PER_MINUTE: '1000000',
    VETTED_WEBHOOK_SECRET: 'chaos-webhook-secret-not-a-secret',
    LOG_LEVEL: 'info',
  };
  await migrate(env, started.logDir);
  return env;
}

function migrate(env: Record<string, string>, logDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'vetted.mjs'), 'migrate'], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => {
      writeFileSync(path.join(logDir, 'migrate.log'), output);
      if (code === 0) resolve();
      else reject(new Error(`vetted migrate exited ${code}: ${output.slice(-500)}`));
    });
  });
}

async function createKeys(databaseUrl: string): Promise<{ submitter: string; reviewer: string; admin: string }> {
  const database = createDb(databaseUrl, { max: 1 });
  try {
    const keys = createApiKeysRepository(database.db);
    const submitter = await keys.create({ tenantId: TENANT, role: 'submitter', label: 'chaos load' });
    const reviewer = await keys.create({ tenantId: TENANT, role: 'reviewer', label: 'chaos reviewer' });
    const admin = await keys.create({ tenantId: TENANT, role: 'admin', label: 'chaos settings' });
    // People who decide from Slack and email (their own decision links), and the team escalations go to.
    const people = createReviewersRepository(database.db);
    await people.create({ tenantId: TENANT, name: 'Chaos Ada', role: 'reviewer', slackUserId: SLACK_USERS[0], email: 'ada@chaos.test' });
    await people.create({ tenantId: TENANT, name: 'Chaos Grace', role: 'reviewer', slackUserId: SLACK_USERS[1], email: 'grace@chaos.test' });
    await people.create({ tenantId: TENANT, name: 'Chaos Lead', role: 'reviewer', team: ESCALATION_TEAM, email: 'lead@chaos.test' });
    return { submitter: submitter.key, reviewer: reviewer.key, admin: admin.key };
  } finally {
    await database.close();
  }
}

/**
 * Evidence for a post-mortem: for every lost, doubled or unsettled run (at most 50) its row, events, decisions,
 * ledger rows and predictions; where the time went per stage; and every table as JSON lines.
 */
async function writeEvidence(pool: pg.Pool, verdict: Verdict, created: readonly SimExecution[], submissions: Submission[], started: Started): Promise<void> {
  const ids = [...verdict.missing, ...verdict.stuck, ...verdict.unsettled, ...verdict.doubled.map((d) => d.runId)].slice(0, 50);
  const dir = path.join(started.logDir, 'evidence');
  mkdirSync(dir, { recursive: true });
  const timings = await stageTimings(pool, TENANT).catch((error: unknown) => ({ error: errorMessage(error) }));
  writeFileSync(path.join(dir, 'stage-timings.json'), JSON.stringify(timings, null, 2));
  await exportTables(pool, dir, created, submissions).catch((error: unknown) => log(`could not export the tables: ${errorMessage(error)}`));
  for (const id of ids) {
    const facts = await evidence(pool, id, created).catch((error: unknown) => ({ error: errorMessage(error) }));
    writeFileSync(path.join(dir, `${id}.json`), JSON.stringify(facts, null, 2));
  }
}

/**
 * Copies the logs (and evidence) out of the work dir, which cleanup removes: into the run's one kept-logs
 * directory, up to the log cap (what does not fit is listed there). A second call does nothing.
 */
let kept = false;
function keepLogs(started: Started, why: string): void {
  if (kept) return;
  kept = true;
  const target = started.state.keepLogsTo;
  try {
    copyCapped([started.logDir, path.join(started.root, 'pg', 'postgres.log'), path.join(started.root, 'redis', 'redis.log')], target, started.state.logCapBytes);
    writeFileSync(path.join(target, 'WHY.txt'), `${why}\n`);
    log(`${why}: process logs and evidence kept in ${target}`);
  } catch (error) {
    log(`could not keep the logs: ${errorMessage(error)}`);
  }
}

/** Stops everything this run started, in reverse order, once, whatever state it is in. */
function cleanup(started: Started): Promise<void> {
  cleaningUp ??= (async () => {
    await started.reviewer?.stop().catch(() => undefined);
    await Promise.all((started.followers ?? []).map((f) => f.stop().catch(() => undefined)));
    await started.fleet?.stopAll().catch((error: unknown) => log(`stopping the processes: ${errorMessage(error)}`));
    await started.pool?.end().catch(() => undefined);
    await started.queues?.close().catch(() => undefined);
    await started.sims?.close().catch(() => undefined);
    await started.fal?.close().catch(() => undefined);
    await started.slack?.close().catch(() => undefined);
    await started.receivers?.close().catch(() => undefined);
    await started.redis?.stop().catch(() => undefined);
    await started.postgres?.stopQuietly().catch(() => undefined);
    // Whatever is still recorded (a process mid-respawn) is stopped by pid; then the reaper has nothing to do.
    const state = readState(started.root) ?? started.state;
    await tearDown(state, { keepLogs: false }).catch((error: unknown) => log(`tearing down: ${errorMessage(error)}`));
    started.state.done = true;
    rmSync(started.root, { recursive: true, force: true });
  })();
  return cleaningUp;
}

/**
 * Ends the run after a fault: keep the logs, stop everything, exit 1. It runs once; a second fault while it
 * runs (a write to a closed pipe failing again, say) is only noted in the run's log file.
 */
function abort(started: Started, why: string): Promise<void> {
  if (aborting) {
    log(`while aborting, also: ${why}`);
    return aborting;
  }
  aborting = (async () => {
    log(`aborting: ${why}; cleaning up`);
    // A cleanup that hangs as well must not keep the run alive: exit anyway; the reaper stops what is left.
    setTimeout(() => process.exit(1), ABORT_EXIT_MS);
    keepLogs(started, `aborted: ${why}`);
    await cleanup(started);
    process.exit(1);
  })();
  return aborting;
}

function trapSignals(started: Started): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    // `on`, not `once`: Ctrl-C reaches us twice (from the terminal and relayed by tsx), and a second
    // signal with no listener would kill us halfway through the cleanup, leaving servers behind.
    process.on(signal, () => {
      if (cleaningUp) return log(`${signal}: already stopping`);
      log(`${signal}: stopping everything this run started`);
      void cleanup(started).finally(() => process.exit(130));
    });
  }
  process.on('unhandledRejection', (error) => void abort(started, `unhandled rejection: ${errorMessage(error)}`));
  process.on('uncaughtException', (error) => void abort(started, `uncaught exception: ${errorMessage(error)}`));
}

// Exit explicitly: a client a fault left half-open must not keep the process alive after the report.
process.exit(await main());
