/**
 * Phase `shadow` (`--shadow RATE`): the `vetted` bench again with shadow mode on. The worker process gets
 * VETTED_SHADOW_SAMPLE_RATE = RATE (shadowBenchEnv) and runs the shadow queue beside the five stages
 * (SHADOW_WORK_KIND, concurrency = the build stage's), so each sampled run's build also queues a V2 build,
 * diff and leak check on `vetted-shadow`. Requests are the same as in `vetted` (heuristic + dry), so the
 * ratio to that phase's throughput is what shadowing costs the V3 pipeline.
 *
 * A request still ends when its execute job completes: V3 never waits for its shadow. What is left on the
 * shadow queue at that moment is drained (waitForShadowDrain) before the run's costs are read and before
 * the next run starts, so the CPU of every shadow report is counted and none spills into the next figure.
 * The drain time is shown; so is the throughput counting it, which is what a sustained load would see.
 */
import { STAGE_NAMES } from '../src/engine/stages.ts';
import { SHADOW_WORK_KIND, shadowBenchEnv, shadowProgress, waitForShadowDrain, type ShadowProgress } from './shadow-support.ts';
import type { QueuedSystem as System } from '../src/system.ts';
import type { LoadTarget } from './load-driver.ts';
import type { Phase, PhaseResult } from './phase.ts';
import { fixed, loadSummary, type LoadRow, type TargetVerdict } from './report.ts';
import { benchTenant, measureVetted } from './vetted-pipeline.ts';

const PART = 'shadow';
const DRAIN_TIMEOUT_MS = 120_000;
const TARGET_RATIO = 0.8;

interface Drain {
  /** Shadow jobs not finished when the run's last request completed. */
  backlog: number;
  seconds: number;
  drained: boolean;
}

export const shadowPhase: Phase = {
  name: 'shadow',
  summary: 'The vetted bench with shadow mode on at --shadow RATE (V2 beside V3 on the vetted-shadow queue)',
  optIn: true,
  comparedWith: ['vetted'],
  ratios: [
    { name: 'throughput, shadowed / not', against: 'vetted', load: 'throughput', metric: 'rate', atLeast: TARGET_RATIO },
    { name: 'p99 at 1 in flight, shadowed / not', against: 'vetted', load: 'latency', metric: 'p99' },
  ],
  async run(context) {
    const rate = context.options.shadowRate;
    const drains = new Map<string, Drain>();
    const reports = new Map<string, ShadowProgress>();
    const settleWith = (system: System, target: LoadTarget): LoadTarget => ({
      ...target,
      async settle(tag) {
        const backlog = (await shadowProgress(system, benchTenant(PART, tag))).backlog;
        const started = performance.now();
        const drained = await waitForShadowDrain(system, DRAIN_TIMEOUT_MS);
        drains.set(tag, { backlog, seconds: (performance.now() - started) / 1000, drained });
        reports.set(tag, await shadowProgress(system, benchTenant(PART, tag)));
      },
    });
    const { loads } = await measureVetted(context, {
      system: `vetted shadow ${rate}`,
      part: PART,
      env: shadowBenchEnv(rate),
      kinds: [...STAGE_NAMES, SHADOW_WORK_KIND],
      decorate: (target, system) => settleWith(system, target),
    });
    return report(rate, loads, drains, reports);
  },
};

function report(rate: number, loads: readonly LoadRow[], drains: Map<string, Drain>, reports: Map<string, ShadowProgress>): PhaseResult {
  const lines = [
    `Worker process: the five stages plus the shadow queue (concurrency = build's), VETTED_SHADOW_SAMPLE_RATE=${rate}.`,
    'Per run: shadow jobs left when its last request completed, the time to drain them (before its costs were read),',
    'and the reports written for its runs:',
  ];
  const verdicts: TargetVerdict[] = [];
  let leaks = 0;
  for (const row of loads) {
    const tag = row.load;
    const drain = drains.get(tag);
    const written = reports.get(tag);
    if (!drain || !written) continue;
    leaks += written.v3Leaks;
    const sustained = row.requests / (row.seconds + drain.seconds);
    lines.push(
      `  ${tag.padEnd(10)} backlog ${String(drain.backlog).padStart(5)}, drained in ${fixed(drain.seconds, 2)} s${drain.drained ? '' : ` (NOT drained after ${DRAIN_TIMEOUT_MS / 1000} s)`}; ` +
        `reports ${written.reports}/${row.requests} runs (expected ≈ ${Math.round(rate * row.requests)}), failed ${written.failed}, V3 leaks ${written.v3Leaks}`,
    );
    if (row.load === 'throughput') {
      lines.push(`  throughput counting the drain: ${fixed(sustained, 1)} req/s (vs ${fixed(loadSummary(row).rate, 1)} req/s to the last completion)`);
    }
  }
  verdicts.push({ name: 'V3 leaks found by the shadow reports', value: leaks, shown: String(leaks), bound: '0', pass: leaks === 0 });
  return { loads: [...loads], section: { title: `Shadow mode at rate ${rate} (phase shadow)`, lines }, verdicts };
}
