/**
 * The end of a chaos run: one table of counts and latencies, then the failures grouped by reason (with the
 * request kinds they came from, so an unexpected one stands out), then anything else worth a look.
 */
import path from 'node:path';
import type { FaultRecord } from './faults.ts';
import type { RequestKind } from './mix.ts';
import type { Crash } from './processes.ts';
import type { ReviewerStats } from './reviewer.ts';
import type { Verdict } from './verify.ts';
import { renderVerdictLines, verdictPassed, type VerdictLine } from './verdicts.ts';

export interface ReportInput {
  requests: number;
  seed: number;
  durationMs: number;
  verdict: Verdict;
  /** The verdict checks, one printed line each (verdicts.ts); any non-zero fails the run. */
  lines: VerdictLine[];
  faults: FaultRecord[];
  crashes: Crash[];
  failedStarts: number;
  reviewer: ReviewerStats;
  harnessErrors: string[];
}

export interface Outcome {
  lost: number;
  doubled: number;
  passed: boolean;
}

export function outcomeOf(input: ReportInput): Outcome {
  const lost = input.verdict.missing.length + input.verdict.stuck.length;
  const doubled = input.verdict.doubled.length;
  return { lost, doubled, passed: verdictPassed(input.lines) && input.harnessErrors.length === 0 };
}

export function renderReport(input: ReportInput): string {
  const { verdict } = input;
  const outcome = outcomeOf(input);
  const byStatus = (status: string) => [...verdict.runs.values()].filter((r) => r.status === status && acknowledgedIds(verdict).has(r.id));
  const codes = (status: string) => summarize(byStatus(status).map((r) => r.error?.code ?? '?'));
  const ack = verdict.acknowledged.map((s) => (s.ackAt as number) - s.sentAt);
  const rest = restLatencies(verdict);
  const refused = verdict.notAcknowledged.filter((s) => s.outcome === 'refused').length;
  const rows: [string, string][] = [
    ['requests sent', `${verdict.acknowledged.length + verdict.notAcknowledged.length} of ${input.requests}`],
    ['acknowledged (2xx with a run id)', String(verdict.acknowledged.length)],
    ['not acknowledged', `${verdict.notAcknowledged.length} (refused 4xx ${refused}, gave up ${verdict.notAcknowledged.length - refused})`],
    ['completed', String(byStatus('completed').length)],
    ['failed, by reason code', `${byStatus('failed').length}  ${codes('failed')}`],
    ['cancelled, by reason code', `${byStatus('cancelled').length}  ${codes('cancelled')}`],
    ['expired (review TTL)', String(byStatus('expired').length)],
    ['parked (awaiting_human at the end)', String(byStatus('awaiting_human').length)],
    ['unsettled (in flight, still moving)', String(verdict.unsettled.length)],
    ['LOST (must be 0)', `${outcome.lost}  (not in PostgreSQL ${verdict.missing.length}, stuck in flight ${verdict.stuck.length})`],
    ['EXECUTED TWICE (must be 0)', `${outcome.doubled}  (executions at the sims ${verdict.executions}: ${verdict.executionsByProvider}; without a ledger handle ${verdict.unrecordedExecutions}, untagged ${verdict.untaggedExecutions})`],
    ['latency submit → 2xx ack', percentiles(ack)],
    ['latency submit → rest, never parked', percentiles(rest.auto)],
    ['latency submit → rest, all terminal', percentiles(rest.all)],
    ['faults injected', `${input.faults.filter((f) => !f.error).length}  ${summarize(input.faults.filter((f) => !f.error).map((f) => faultKind(f.name)))}`],
    ['crashes (exits nobody asked for)', `${input.crashes.length}  (failed starts while a service was down: ${input.failedStarts})`],
    ['reviews raised, by reason', `${[...verdict.reviewReasons.values()].reduce((a, b) => a + b, 0)}  ${summarize([...verdict.reviewReasons].flatMap(([k, n]) => Array<string>(n).fill(k)))}`],
    ['reviewer decisions', `${[...input.reviewer.decisions.values()].reduce((a, b) => a + b, 0)}  (409 conflicts ${input.reviewer.conflicts}, errors ${[...input.reviewer.errors.values()].reduce((a, b) => a + b, 0)})`],
    ['reconciler requeues', String(verdict.requeued)],
    ['verdict', verdictText(outcome, input)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const title = `Vetted chaos run: ${input.requests} requests, seed ${input.seed}, ${(input.durationMs / 1000).toFixed(0)} s`;
  const line = '─'.repeat(Math.max(title.length, width + 40));
  const table = [title, line, ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`), line].join('\n');
  return [table, `Verdict checks (each must be 0):\n${renderVerdictLines(input.lines)}`, failureList(verdict), findings(input)].filter(Boolean).join('\n\n');
}

function verdictText(outcome: Outcome, input: ReportInput): string {
  if (!outcome.passed) return `FAIL (${[...input.lines.filter((l) => l.count > 0).map((l) => `${l.count} ${l.name}`), input.harnessErrors.length ? 'harness errors' : ''].filter(Boolean).join(', ')})`;
  // Crashes do not fail the run (a supervisor restarts the process and nothing was lost), but they are bugs.
  return input.crashes.length ? `PASS: nothing lost or doubled, but ${input.crashes.length} process crash(es): see Findings` : 'PASS';
}

function acknowledgedIds(verdict: Verdict): Set<string> {
  return new Set(verdict.acknowledged.map((s) => s.runId as string));
}

/** Submit → terminal, from the run's completedAt in PostgreSQL (same machine clock as the client's sentAt). */
function restLatencies(verdict: Verdict): { auto: number[]; all: number[] } {
  const auto: number[] = [];
  const all: number[] = [];
  for (const s of verdict.acknowledged) {
    const run = verdict.runs.get(s.runId as string);
    if (!run?.completedAt) continue;
    const ms = run.completedAt.getTime() - s.sentAt;
    all.push(ms);
    if (!verdict.reviewed.has(run.id)) auto.push(ms);
  }
  return { auto, all };
}

/** Failed and cancelled runs grouped by code and message (ids and numbers blanked), with the kinds they came from. */
function failureList(verdict: Verdict): string {
  const kindOf = new Map(verdict.acknowledged.map((s) => [s.runId as string, s.planned.kind]));
  const groups = new Map<string, { count: number; kinds: RequestKind[]; example: string }>();
  for (const run of verdict.runs.values()) {
    if ((run.status !== 'failed' && run.status !== 'cancelled') || !kindOf.has(run.id)) continue;
    const message = (run.error?.message ?? '').replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>').replace(/\b[a-z0-9]{26}\b/g, '<id>').replace(/\d+/g, 'N').slice(0, 110);
    const key = `${run.status} ${run.error?.code ?? '?'}${run.error?.stage ? ` at ${run.error.stage}` : ''}: ${message}`;
    const group = groups.get(key) ?? { count: 0, kinds: [], example: run.id };
    group.count++;
    group.kinds.push(kindOf.get(run.id) as RequestKind);
    groups.set(key, group);
  }
  if (groups.size === 0) return '';
  const lines = [...groups].sort((a, b) => b[1].count - a[1].count).map(([key, g]) => `  ${String(g.count).padStart(4)}  ${key}\n        kinds: ${summarize(g.kinds)}; e.g. run ${g.example}`);
  return ['Failed and cancelled runs, by reason:', ...lines].join('\n');
}

function findings(input: ReportInput): string {
  const { verdict } = input;
  const lines: string[] = [];
  for (const id of verdict.missing) lines.push(`  LOST: run ${id} was acknowledged but is not in PostgreSQL`);
  for (const id of verdict.stuck) lines.push(`  LOST: run ${id} is ${verdict.runs.get(id)?.status} and did not move for the whole observation window`);
  for (const id of verdict.unsettled) lines.push(`  unsettled: run ${id} is ${verdict.runs.get(id)?.status} at ${verdict.runs.get(id)?.stage}, still moving after the deadline`);
  for (const d of verdict.doubled) lines.push(`  EXECUTED TWICE: run ${d.runId}: ${d.why}`);
  for (const b of verdict.idempotencyBreaks) lines.push(`  idempotency: ${b}`);
  if (verdict.duplicateReviewsRefused > 0) lines.push(`  ${verdict.duplicateReviewsRefused} second review trigger(s) refused while one was pending (review.duplicate_refused)`);
  // The work dir is gone by now; the log is in the kept copy, named after the role.
  for (const c of input.crashes) lines.push(`  crash: ${c.role} pid ${c.pid} exited at ${c.at} (code ${c.code}, signal ${c.signal}); see ${path.basename(c.logFile)} in the kept logs`);
  if (input.reviewer.sameReviewAgain.size > 0) {
    const [example] = input.reviewer.sameReviewAgain;
    lines.push(`  ${input.reviewer.sameReviewAgain.size} run(s) came back to the same error-recovery review after "retry" (e.g. ${example?.[0]}: ${example?.[1].join(' | ')})`);
  }
  const refusals = [...input.reviewer.errors].filter(([k]) => /^4\d\d /.test(k) && !k.startsWith('429'));
  for (const [key, n] of refusals) lines.push(`  reviewer decisions refused by the API: ${n}× ${key}`);
  const transient = [...input.reviewer.errors].filter(([k]) => !refusals.some(([r]) => r === k));
  if (transient.length) lines.push(`  reviewer calls that failed during faults (tried again at the next poll): ${transient.map(([k, n]) => `${n}× ${k}`).join(', ')}`);
  for (const f of input.faults.filter((f) => f.error)) lines.push(`  fault not injected: ${f.name}: ${f.error}`);
  for (const e of input.harnessErrors) lines.push(`  harness: ${e}`);
  const refusedLoads = input.verdict.notAcknowledged.slice(0, 5).map((s) => `  not acknowledged: ${s.planned.requestKey} (${s.planned.kind}) after ${s.tries} tries: ${s.lastError}`);
  lines.push(...refusedLoads);
  return lines.length ? ['Findings:', ...lines].join('\n') : '';
}

function faultKind(name: string): string {
  if (name.startsWith('kill -9')) return 'kill -9';
  if (name.startsWith('Redis')) return 'Redis restart';
  if (name.startsWith('PostgreSQL')) return 'PostgreSQL restart';
  if (name.startsWith('LLM')) return 'LLM';
  return 'provider';
}

/** "A 3, B 1", most frequent first. */
function summarize(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
}

function percentiles(values: readonly number[]): string {
  if (values.length === 0) return 'n/a';
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
  return `p50 ${fmt(at(50))}  p99 ${fmt(at(99))}  max ${fmt(sorted.at(-1) as number)}  (n=${sorted.length})`;
}

function fmt(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
