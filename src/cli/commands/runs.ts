/** `vetted enqueue`, `vetted runs`, `vetted run <id>` and `vetted decide`: runs from the command line. */
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { toRunView } from '../../engine/run-view.ts';
import { isVettedError, VettedError } from '../../errors.ts';
import type { Decision, RunStatus } from '../../generated/contracts.ts';
import { TRANSITIONS } from '../../run-states.ts';
import { isPlainObject } from '../../stages/example-quarantine.ts';
import { action, withSystem } from '../action.ts';
import { apiClientFor, onStore, withApiOptions, type ApiClient, type ThroughApiOptions } from '../through-api.ts';
import { bindDecision } from '../decision-binding.ts';
import { parseChoice, parseInteger, parseTenant } from '../option-parsers.ts';
import { inFile, printJson, readJsonFile } from '../io.ts';

/** Every status, from the transitions table (a Record over RunStatus, so a new status cannot be missed). */
const RUN_STATUSES = Object.keys(TRANSITIONS) as RunStatus[];
const MAX_LIMIT = 1000;
/** Keyed by the contract's union, so the compiler notices a new action. */
const DECISION_ACTION_SET: Record<Decision['action'], true> = { approve: true, edit: true, reject: true, retry: true, change_model: true, edit_text: true };
const DECISION_ACTIONS = Object.keys(DECISION_ACTION_SET) as Decision['action'][];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function assertRunId(id: string): string {
  if (!UUID.test(id)) throw new VettedError('INVALID_ID', `run id "${id}" is not a UUID`, { field: 'id' });
  return id;
}

export function registerRunCommands(program: Command): void {
  program
    .command('enqueue')
    .description('Submit a GenerationRequest to the queues and print the run id')
    .requiredOption('--request <file>', 'GenerationRequest JSON file')
    .option('--model <file>', 'model file sent inline (otherwise the request must name a catalog model)')
    .option('--tenant <id>', 'tenant the run belongs to', 'default')
    .action(
      action(async (options: { request: string; model?: string; tenant: string }) => {
        const tenantId = parseTenant(options.tenant);
        const request = await readJsonFile(options.request, 'request file');
        if (!isPlainObject(request)) throw new VettedError('INVALID_REQUEST', `request file ${options.request}: must hold a JSON object`, { field: 'request' });
        if (options.model) request.modelSource = await readJsonFile(options.model, 'model file');
        await withSystem(async (system) => {
          const { submitRun } = await import('../../intake/submit-run.ts');
          const { run, created } = await submitRun(system, { tenantId, request, actor: `cli:${userInfo().username}` }).catch((error: unknown) => {
            throw blameFile(options, error);
          });
          if (!created) process.stderr.write(`requestKey already used: returning the existing run (${run.status})\n`);
          console.log(run.id);
        });
      }),
    );

  withApiOptions(
    program
      .command('runs')
      .description("List recent runs (through a running API: the runs of its key's tenant)")
      .option('--status <status>', `only runs in this status: ${RUN_STATUSES.join(' | ')}`)
      .option('--limit <n>', `how many, 1 to ${MAX_LIMIT}`, '50'),
  ).action(
    action(async (options: { status?: string; limit: string } & ThroughApiOptions) => {
      const statuses = options.status === undefined ? RUN_STATUSES : [parseChoice('--status', options.status, RUN_STATUSES)];
      const limit = parseInteger('--limit', options.limit, { min: 1, max: MAX_LIMIT });
      const api = await apiClientFor(options);
      if (api) return printRuns(await recentRunsThroughApi(api, options.status, limit));
      await onStore(async (system) => {
        const rows = await system.store.list({ kind: 'recent', statuses, limit });
        printRuns(rows.map((r) => ({ id: r.id, status: r.status, stage: r.stage, model: r.model, createdAt: r.createdAt.toISOString() })));
      });
    }),
  );

  withApiOptions(
    program
      .command('run <id>')
      .description('Show one run as JSON (with --events, its audit trail too)')
      .option('--events', 'include the run events'),
  ).action(
    action(async (id: string, options: { events?: boolean } & ThroughApiOptions) => {
      const api = await apiClientFor(options);
      if (api) return printJson(await runThroughApi(api, assertRunId(id), options.events === true));
      await onStore(async (system) => {
        const row = await system.store.get(assertRunId(id));
        if (!row) throw new VettedError('RUN_NOT_FOUND', `No run ${id}`, { field: 'id' });
        const events = options.events ? (await system.store.events(row.id)).map((e) => ({ ...e, id: String(e.id) })) : undefined;
        printJson(events ? { run: toRunView(row), events } : toRunView(row));
      });
    }),
  );

  withApiOptions(
    program
      .command('decide <runId>')
      .description('Resolve a parked run: approve, edit (with --set field=value), reject, retry (a response review; with --set, retry with those changes), change_model (with --model owner/name: build it for another catalog model), or edit_text (with --text: the text a response review of a text output delivers instead)')
      .requiredOption('--action <action>', DECISION_ACTIONS.join(' | '))
      .option('--review <id>', "the review being answered (default: the run's pending review; `vetted run <id>` shows it)")
      .option('--set <field=value...>', 'field edits for --action edit; values are JSON when they parse, else strings')
      .option('--reason <text>', 'why (kept in the audit trail)')
      .option('--override', 'approve despite blocking issues (through the API: when its key may override)')
      .option('--model <ref>', "for --action change_model: the catalog model (owner/name[:version]) of the run's tenant to build it for instead")
      .option('--text <text>', "for --action edit_text: the text the upstream app gets instead of the provider's (the original is kept beside it)"),
  ).action(
    action(async (runId: string, options: DecideOptions) => {
      const decisionAction = parseChoice('--action', options.action, DECISION_ACTIONS);
      assertRunId(runId);
      if (options.review !== undefined && !UUID.test(options.review)) throw new VettedError('INVALID_ID', `--review "${options.review}" is not a review id (a UUID)`, { field: 'review' });
      const decision = {
        action: decisionAction,
        ...(options.set ? { edits: parseEdits(options.set) } : {}),
        ...(options.reason ? { reason: options.reason } : {}),
        ...(options.override ? { override: true } : {}),
        ...(options.model !== undefined ? { model: options.model } : {}),
        ...(options.text !== undefined ? { text: options.text } : {}),
      };
      const api = await apiClientFor(options);
      if (api) {
        const { route, run } = await decideThroughApi(api, runId, options.review, decision);
        return console.log(`${route}: run ${run.id} is now ${run.status}`);
      }
      await onStore(async (system) => {
        const run = await system.store.get(runId);
        if (!run) throw new VettedError('RUN_NOT_FOUND', `No run ${runId}`, { field: 'runId' });
        const reviewId = options.review ?? run.pendingReview?.reviewId;
        if (!reviewId) throw new VettedError('RUN_STATE_CONFLICT', `run ${runId} is ${run.status}, with no pending review to decide`, { field: 'runId' });
        const { decide } = await import('../../review/decide-on-run.ts');
        const body = bindDecision(reviewId, decision, run.pendingReview) as unknown as Decision;
        const { run: updated, plan } = await decide(system, { runId, body, actor: { id: `cli:${userInfo().username}`, canOverride: true, canChangeModel: true } });
        console.log(`${plan.route}: run ${updated.id} is now ${updated.status}`);
      });
    }),
  );

  withApiOptions(
    program
      .command('reply <runId> <text>')
      .description("Answer a parked run's question in words, as its person would (\"yes\", \"2\", \"yes, but 16:9\", \"never mind\"); prints how it was read and what happened")
      .option('--review <id>', "the review being answered (default: the run's pending review)")
      .option('--locale <tag>', 'the language of the reply (BCP 47, e.g. he)'),
  ).action(
    action(async (runId: string, text: string, options: { review?: string; locale?: string } & ThroughApiOptions) => {
      assertRunId(runId);
      if (options.review !== undefined && !UUID.test(options.review)) throw new VettedError('INVALID_ID', `--review "${options.review}" is not a review id (a UUID)`, { field: 'review' });
      const api = await apiClientFor(options);
      if (api) {
        const run: { status: string; pendingReview?: { reviewId: string } | null } = await api.get(`/api/runs/${runId}`);
        const body = { reviewId: reviewToAnswer(runId, run, options.review), text, ...(options.locale ? { locale: options.locale } : {}) };
        return printReply(await api.post<ReplyLine>(`/api/runs/${runId}/reply`, body));
      }
      await onStore(async (system) => {
        const run = await system.store.get(runId);
        if (!run) throw new VettedError('RUN_NOT_FOUND', `No run ${runId}`, { field: 'runId' });
        const body = { reviewId: reviewToAnswer(runId, run, options.review), text, ...(options.locale ? { locale: options.locale } : {}) };
        const { reply } = await import('../../review/reply-service.ts');
        printReply(await reply(system, { runId, body, actor: { id: `cli:${userInfo().username}`, canOverride: false }, replier: 'reviewer' }));
      });
    }),
  );
}

/** What a reply came to, as the store's reply service and the API's answer both carry it. */
interface ReplyLine {
  outcome: { layer: string; decision: string; parsed?: unknown } | null;
  route: string;
  run: { id: string; status: string };
  newRun?: { id: string; status: string };
  ask?: string;
}

function reviewToAnswer(runId: string, run: { status: string; pendingReview?: { reviewId: string } | null }, given: string | undefined): string {
  const reviewId = given ?? run.pendingReview?.reviewId;
  if (!reviewId) throw new VettedError('RUN_STATE_CONFLICT', `run ${runId} is ${run.status}, with no pending review to answer`, { field: 'runId' });
  return reviewId;
}

/** How the reply was read (as the API shows it: layer, decision, what was parsed) and what happened. */
function printReply(result: ReplyLine): void {
  const { outcome } = result;
  printJson({
    outcome: outcome && { layer: outcome.layer, decision: outcome.decision, ...(outcome.parsed ? { parsed: outcome.parsed } : {}) },
    route: result.route, run: { id: result.run.id, status: result.run.status },
    ...(result.newRun ? { newRun: { id: result.newRun.id, status: result.newRun.status } } : {}),
    ...(result.ask ? { ask: result.ask } : {}),
  });
}

interface DecideOptions extends ThroughApiOptions {
  action: string;
  review?: string;
  set?: string[];
  reason?: string;
  override?: boolean;
  model?: string;
  text?: string;
}

interface RunLine {
  id: string;
  status: string;
  stage: string;
  model: string | null;
  createdAt: string;
}

function printRuns(rows: readonly RunLine[]): void {
  if (rows.length === 0) return console.log('No runs.');
  console.table(rows.map((r) => ({ id: r.id, status: r.status, stage: r.stage, model: r.model, created: r.createdAt })));
}

/** The API pages by 200 at most: read pages until `limit` runs or the last page. */
async function recentRunsThroughApi(api: ApiClient, status: string | undefined, limit: number): Promise<RunLine[]> {
  const rows: RunLine[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: String(Math.min(200, limit - rows.length)), ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) });
    const page: { items: RunLine[]; nextCursor: string | null } = await api.get(`/api/runs?${query}`);
    rows.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && rows.length < limit);
  return rows.slice(0, limit);
}

/** The run as `vetted run` prints it from the store: the API's resource without its links and timings. */
async function runThroughApi(api: ApiClient, id: string, withEvents: boolean): Promise<unknown> {
  const strip = ({ links: _links, timings: _timings, ...view }: Record<string, unknown>) => view;
  if (!withEvents) return strip(await api.get(`/api/runs/${id}`));
  const state: { run: Record<string, unknown>; events: unknown[] } = await api.get(`/api/runs/${id}/state`);
  return { run: strip(state.run), events: state.events };
}

/** A decision through the API, bound (as the API requires) to the payload the run's pending review shows. */
async function decideThroughApi(api: ApiClient, runId: string, review: string | undefined, decision: Record<string, unknown>): Promise<{ route: string; run: { id: string; status: string } }> {
  const run: { status: string; pendingReview?: { reviewId: string; payloadHash?: string; outputHash?: string } | null } = await api.get(`/api/runs/${runId}`);
  const reviewId = review ?? run.pendingReview?.reviewId;
  if (!reviewId) throw new VettedError('RUN_STATE_CONFLICT', `run ${runId} is ${run.status}, with no pending review to decide`, { field: 'runId' });
  return api.post(`/api/runs/${runId}/decision`, bindDecision(reviewId, decision, run.pendingReview));
}

/** The file a refusal is about: `--model`'s for what the inline model source holds, else the request file's. */
function blameFile(options: { request: string; model?: string }, error: unknown): unknown {
  const field = isVettedError(error) ? error.field : undefined;
  if (options.model && field !== undefined && (field === 'modelSource' || field.startsWith('modelSource.'))) {
    const rest = field === 'modelSource' ? 'source' : field.slice('modelSource.'.length);
    const inner = error as VettedError;
    return inFile(options.model, 'model file', new VettedError(inner.code, withoutModelSourcePrefix(inner.message), { field: rest, details: inner.details, cause: inner }));
  }
  return inFile(options.request, 'request file', error);
}

/** `request: modelSource: Unsupported…` → `Unsupported…`; `modelSource.example_input.x contains…` → `example_input.x contains…`. */
function withoutModelSourcePrefix(message: string): string {
  return message.replace(/^(request: )?modelSource(: |\.| )/, '');
}

function parseEdits(pairs: string[]): Record<string, unknown> {
  const edits: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new VettedError('INVALID_REQUEST', `--set ${pair}: expected field=value`, { field: 'set' });
    const raw = pair.slice(at + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // not JSON: keep the text as a string value
    }
    edits[pair.slice(0, at)] = value;
  }
  return edits;
}
