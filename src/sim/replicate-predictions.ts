/**
 * The simulated Replicate's predictions: starting → processing → (succeeded | failed | canceled), one step
 * every `stepMs` (0: finished at the first poll). The status is computed from the clock when asked, so no
 * timer is needed except to send a webhook. Every created prediction is kept in order: the chaos test and the
 * integration tests count them to prove that nothing ran twice.
 */
import { randomBytes } from 'node:crypto';

export type JsonObject = Record<string, unknown>;
export type PredictionOutcome = 'succeed' | 'fail' | 'cancel' | 'hang';

/** Markers anywhere in a prediction's input that force its outcome. */
export const REPLICATE_SIM_MARKERS: Readonly<Record<string, PredictionOutcome>> = {
  'sim:fail': 'fail',
  'sim:cancel': 'cancel',
  'sim:hang': 'hang',
};

/** What the log keeps of each created prediction. */
export interface CreatedPrediction {
  id: string;
  model: string | null;
  version: string | null;
  input: JsonObject;
  webhook: string | null;
  createdAt: string;
}

interface PredictionRecord extends CreatedPrediction {
  createdMs: number;
  stepMs: number;
  outcome: PredictionOutcome;
  canceledMs?: number;
  sendCompleted: boolean;
}

export interface PredictionSettings {
  stepMs: number;
  outcome: PredictionOutcome;
}

export class SimPredictions {
  private readonly records = new Map<string, PredictionRecord>();
  private readonly log: CreatedPrediction[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly origin: string,
    private readonly settings: PredictionSettings,
  ) {}

  create(input: { model: string | null; version: string | null; input: JsonObject; webhook?: string; filter?: unknown }): JsonObject {
    const now = Date.now();
    const text = JSON.stringify(input.input);
    const marker = Object.keys(REPLICATE_SIM_MARKERS).find((m) => text.includes(m));
    const record: PredictionRecord = {
      id: randomBytes(13).toString('hex').slice(0, 26),
      model: input.model,
      version: input.version,
      input: input.input,
      webhook: input.webhook ?? null,
      createdAt: new Date(now).toISOString(),
      createdMs: now,
      stepMs: this.settings.stepMs,
      outcome: marker === undefined ? this.settings.outcome : (REPLICATE_SIM_MARKERS[marker] ?? 'succeed'),
      sendCompleted: !Array.isArray(input.filter) || input.filter.includes('completed'),
    };
    this.records.set(record.id, record);
    const { createdMs: _c, stepMs: _s, outcome: _o, canceledMs: _x, sendCompleted: _w, ...logged } = record;
    this.log.push(logged);
    if (record.webhook && record.sendCompleted && record.outcome !== 'hang') this.later(2 * record.stepMs, () => this.notify(record));
    // The real API answers a create with `starting`, whatever happens next.
    return this.render(record, 'starting');
  }

  get(id: string): JsonObject | undefined {
    const record = this.records.get(id);
    return record && this.render(record);
  }

  cancel(id: string): JsonObject | undefined {
    const record = this.records.get(id);
    if (!record) return undefined;
    if (!isTerminal(this.statusOf(record))) {
      record.canceledMs = Date.now();
      if (record.webhook && record.sendCompleted) this.notify(record);
    }
    return this.render(record);
  }

  /** Every prediction created so far, oldest first. */
  created(): CreatedPrediction[] {
    return this.log.map((entry) => ({ ...entry }));
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private statusOf(record: PredictionRecord, now = Date.now()): string {
    if (record.canceledMs !== undefined) return 'canceled';
    const elapsed = now - record.createdMs;
    if (elapsed < record.stepMs) return 'starting';
    if (elapsed < 2 * record.stepMs || record.outcome === 'hang') return 'processing';
    return { succeed: 'succeeded', fail: 'failed', cancel: 'canceled' }[record.outcome];
  }

  private render(record: PredictionRecord, forced?: string): JsonObject {
    const status = forced ?? this.statusOf(record);
    const started = status === 'starting' ? null : iso(record.createdMs + record.stepMs);
    const completed = isTerminal(status) ? iso(record.canceledMs ?? record.createdMs + 2 * record.stepMs) : null;
    const url = `${this.origin}/v1/predictions/${record.id}`;
    return {
      id: record.id,
      model: record.model ?? 'unknown/unknown',
      version: record.version ?? 'hidden',
      input: record.input,
      logs: status === 'starting' ? '' : 'sim: running\n',
      output: status === 'succeeded' ? outputOf(this.origin, record) : null,
      error: status === 'failed' ? 'sim: the model failed (simulated)' : null,
      status,
      source: 'api',
      data_removed: false,
      created_at: record.createdAt,
      ...(started ? { started_at: started } : {}),
      ...(completed ? { completed_at: completed } : {}),
      ...(isTerminal(status) ? { metrics: { predict_time: record.stepMs / 1000, total_time: (2 * record.stepMs) / 1000 } } : {}),
      ...(record.webhook ? { webhook: record.webhook } : {}),
      urls: { get: url, cancel: `${url}/cancel`, web: `${this.origin}/p/${record.id}` },
    };
  }

  private notify(record: PredictionRecord): void {
    if (!record.webhook) return;
    const body = JSON.stringify(this.render(record));
    fetch(record.webhook, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).catch(() => undefined);
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }
}

/**
 * What a finished prediction returns: a language model (its input sets `max_new_tokens`) streams text, as a list
 * of strings; any other model, files.
 */
function outputOf(origin: string, record: PredictionRecord): string[] {
  if (typeof record.input.max_new_tokens === 'number') return ['Here is ', 'my answer to: ', String(record.input.prompt ?? '')];
  return outputUrls(origin, record);
}

/** One URL per requested output (`num_outputs`, 1 to 4), served by the sim itself. */
function outputUrls(origin: string, record: PredictionRecord): string[] {
  const requested = record.input.num_outputs;
  const count = typeof requested === 'number' && Number.isInteger(requested) ? Math.min(Math.max(requested, 1), 4) : 1;
  return Array.from({ length: count }, (_, i) => `${origin}/files/${record.id}/output-${i}.png`);
}

function isTerminal(status: string): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled';
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
