/**
 * `vetted demo`: the whole pipeline end to end on bundled Replicate models, with live progress. It starts
 * the HTTP API and the workers in this process, then behaves like its users: an upstream app submits
 * requests with a submitter key, and a reviewer resolves the runs that park, with a reviewer key.
 * `--provider fal,openai,anthropic` adds a model of each, read from the provider's published OpenAPI document and
 * executed on a local server that speaks its API (demo/provider-sims.ts).
 */
import { commandEnv, loadConfig, type Config } from '../../config.ts';
import { redactUrlPassword } from '../../util/redact-url.ts';
import { isTerminal } from '../../run-states.ts';
import { registerModel } from '../../catalog/model-catalog.ts';
import { startSimServers, type SimServers } from '../../sim/index.ts';
import { createSystem, type System } from '../../system.ts';
import { startApiServer } from '../../../api/server.ts';
import { startWorkers, type RunningWorkers } from '../../../workers/start-workers.ts';
import { embeddedBanner } from '../../embedded/banner.ts';
import { unreachableServices } from '../../embedded/probe.ts';
import { createEmbeddedSystem } from '../../embedded/embedded-system.ts';
import { readJsonFile } from '../io.ts';
import { createApiClient, type ApiClient } from '../demo/api-client.ts';
import { createProgressTracker } from '../demo/progress.ts';
import { startProviderSims, type ProviderSims } from '../demo/provider-sims.ts';
import { demoScript, type DemoModel, type DemoProvider, type DemoRequest, type DemoRun } from '../demo/scenario.ts';
import { printSummary } from '../demo/summary.ts';
import { VettedError } from '../../errors.ts';
import { fromPackageRoot } from '../../util/package-root.ts';

const TENANT = 'demo';
const DEADLINE_MS = 60_000;

export interface DemoOptions {
  sim?: boolean;
  embedded?: boolean;
  /** Providers whose sample model runs beside the Replicate ones, each on its local server. */
  providers?: readonly DemoProvider[];
}

/** `vetted demo` (registered in demo-command.ts, which loads this module only when the demo runs). */
export async function runDemo(options: DemoOptions): Promise<void> {
  const providers = options.providers ?? [];
  const sims = options.sim ? await startSimServers({ replicate: { stepMs: 50 } }) : undefined;
  let providerSims: ProviderSims | undefined;
  try {
    providerSims = providers.length > 0 ? await startProviderSims(providers, sims) : undefined;
    // The OpenAI key that enables the openai provider would also make the LLM builder the default; the
    // offline builder stays, as the "expect" lines describe it, unless --sim asked for the LLM.
    const pinned: Record<string, string> = providerSims && !sims ? { VETTED_BUILDER: 'heuristic' } : {};
    // The progress lines are the demo's output: JSON logs only from warn up, unless LOG_LEVEL asks for more.
    // They read every run 20 times a second through the demo's own API, which a production limit of a few
    // hundred requests a minute would cut off within seconds on a slow machine.
    const config = loadConfig(commandEnv({ LOG_LEVEL: 'warn', VETTED_RATE_LIMIT_PER_MINUTE: '100000' }, { ...sims?.env, ...providerSims?.env, ...pinned }));
    await runDemoWith(config, { sims, providerSims, providers, embedded: options.embedded === true });
  } finally {
    await providerSims?.close();
    await sims?.close();
  }
}

interface DemoSetting {
  sims: SimServers | undefined;
  providerSims: ProviderSims | undefined;
  providers: readonly DemoProvider[];
  embedded: boolean;
}

async function runDemoWith(config: Config, setting: DemoSetting): Promise<void> {
  const { sims, providerSims } = setting;
  const script = demoScript(setting.providers);
  console.log('Vetted demo: zero-trust payload assembly with human review');
  if (sims) {
    console.log(`  simulators: OpenAI-compatible ${sims.openai.baseUrl}, Replicate ${sims.replicate.baseUrl} (real SDKs, local servers)`);
    console.log('  (the "expect" lines describe the heuristic builder; the simulated LLM fills only prompts and attachments)');
  }
  if (providerSims) console.log(`  provider simulators: ${providerSims.describe().join(', ')} (official SDKs, local servers; nothing is spent)`);
  const { system, workers } = await startDemoSystem(config, setting.embedded);
  console.log(`  builder ${config.defaults.builder}, provider ${config.defaults.provider}`);
  const api = await startApiServer(system, { port: 0, host: '127.0.0.1' });
  try {
    console.log(`  API ${api.url} (OpenAPI at ${api.url}/openapi.json)\n`);
    const submitter = createApiClient(api.url, (await system.apiKeys.create({ tenantId: TENANT, role: 'submitter', label: 'demo app' })).key);
    const reviewer = createApiClient(api.url, (await system.apiKeys.create({ tenantId: TENANT, role: 'reviewer', label: 'demo reviewer' })).key);
    await registerDemoModels(system, script.models);
    const runs = await submitDemoRequests(submitter, script.requests);
    const progress = createProgressTracker(submitter, runs);
    await progress.until((rows) => rows.every((r) => isTerminal(r.status) || r.status === 'awaiting_human'), DEADLINE_MS);
    await resolveParkedRuns(reviewer, runs);
    await progress.until((rows) => rows.every((r) => isTerminal(r.status)), DEADLINE_MS);
    const unexpected = printSummary(runs, progress.latest());
    if (unexpected.length > 0) {
      // Another worker on the same prefix with another configuration, or a regression: either way not a pass.
      const hint = workers ? ` (is another worker using prefix ${config.queuePrefix}?)` : '';
      throw new VettedError('INTERNAL', `${unexpected.length} demo run(s) did not end as expected; see the summary${hint}`);
    }
    if (sims) {
      const created = sims.replicate.created().map((p) => p.id);
      console.log(`  the Replicate simulator saw ${created.length} predictions, ${created.length - new Set(created).size} of them twice.`);
    }
    for (const line of providerSims?.tally() ?? []) console.log(`  ${line}`);
  } finally {
    await api.close();
    await workers?.close();
    await system.close();
  }
}

/**
 * PostgreSQL and Redis with BullMQ workers when both answer; otherwise (or with --embedded) the embedded
 * system, saying what was tried. The story is the same either way.
 */
async function startDemoSystem(config: Config, embedded: boolean): Promise<{ system: System; workers?: RunningWorkers }> {
  const missing = embedded ? [] : await unreachableServices(config);
  if (!embedded && missing.length === 0) {
    console.log(`  PostgreSQL ${redactUrlPassword(config.databaseUrl)}  Redis ${redactUrlPassword(config.redisUrl)}  prefix ${config.queuePrefix}`);
    const system = await createSystem(config, { migrate: true });
    return { system, workers: startWorkers(system) };
  }
  for (const { service, url, reason } of missing) console.log(`  ${service} is not reachable at ${url} (${reason})`);
  if (missing.length > 0) console.log('  so the demo runs embedded (--embedded says so up front):');
  console.log(embeddedBanner(undefined).replace(/^/gm, '  '));
  return { system: await createEmbeddedSystem(config) };
}

async function registerDemoModels(system: System, models: readonly DemoModel[]): Promise<void> {
  console.log('Registering the sample models (the SchemaExtractor strips their example values):');
  for (const model of models) {
    const source = await readJsonFile(fromPackageRoot(model.file), 'model file');
    const registered = await registerModel(system, { tenantId: TENANT, source, ref: model.ref });
    const quarantined = (await system.models.getQuarantine(registered.schemaKey)).size;
    console.log(`  ${registered.refs[0]?.padEnd(32)} ${String(registered.modelSchema.fields.length).padStart(2)} fields, ${quarantined} example values quarantined`);
  }
  console.log('');
}

async function submitDemoRequests(submitter: ApiClient, requests: readonly DemoRequest[]): Promise<DemoRun[]> {
  console.log('An upstream app submits requests (POST /api/runs):');
  const runs: DemoRun[] = [];
  for (const [index, scenario] of requests.entries()) {
    const { id } = await submitter.submit(scenario.request);
    runs.push({ index: index + 1, scenario, runId: id });
    console.log(`  [${index + 1}] ${scenario.label}\n      expect: ${scenario.expect}`);
  }
  console.log('\nProgress:');
  return runs;
}

async function resolveParkedRuns(reviewer: ApiClient, runs: DemoRun[]): Promise<void> {
  const pending = (await reviewer.pendingReviews()).items;
  if (pending.length === 0) return;
  console.log('\nA reviewer works the queue (GET /api/reviews/pending, oldest first):');
  for (const item of pending) {
    const demoRun = runs.find((r) => r.runId === item.runId);
    const resolution = demoRun?.scenario.resolution;
    if (!demoRun || !resolution) continue;
    const { review, fields } = await reviewer.review(item.reviewId);
    console.log(`  [${demoRun.index}] ${review.checkpoint} (${review.reason}): ${review.question}`);
    for (const issue of review.issues.filter((i) => i.severity === 'blocking')) console.log(`      ${issue.path} ${issue.code}: ${issue.message}`);
    const changed = fields.filter((f) => f.changed).map((f) => `${f.field} (${f.provenance?.source ?? '?'})`);
    if (changed.length > 0) console.log(`      differs from the defaults: ${changed.join(', ')}`);
    const decision = await reviewer.decide(item.runId, {
      reviewId: review.reviewId,
      payloadHash: review.payloadHash,
      action: resolution.action,
      ...(resolution.action === 'edit' ? { edits: resolution.edits } : {}),
      ...(resolution.action === 'reject' ? { reason: resolution.reason } : {}),
    });
    console.log(`      decision: ${resolution.action} (${resolution.note}) → ${decision.route}`);
  }
  console.log('');
}
