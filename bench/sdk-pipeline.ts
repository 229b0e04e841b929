/**
 * Phase `sdk` (`--builder openai --provider replicate`): the `vetted` bench again, with the requests naming
 * the openai builder and/or the replicate provider, so the build and execute stages go through the real
 * SDKs to the local sims (src/sim), which answer at once (`instant`: a prediction is finished at its first
 * poll). The sims run in this process, the workers in their child as always. Set beside the `vetted`
 * phase's heuristic + dry figures from the same run, the difference is Vetted's own overhead around the two
 * SDKs: the clients, the HTTP round trips to loopback, the JSON-schema answer check, the prediction
 * bookkeeping. The sims' CPU lands in the driver's column.
 */
import { startSimServers, type SimServers } from '../src/sim/index.ts';
import { LATENCY_WARMUP } from './load-driver.ts';
import type { Phase } from './phase.ts';
import { fixed } from './report.ts';
import { measureVetted } from './vetted-pipeline.ts';
import type { BenchAdapters } from './workload.ts';

/** The load table's system name for a choice of adapters. */
export function sdkSystemName(adapters: Readonly<BenchAdapters>): string {
  return `vetted ${adapters.builder}+${adapters.provider}`;
}

export const sdkPhase: Phase = {
  name: 'sdk',
  summary: 'The vetted bench through the openai/replicate SDKs against local sims that answer at once (--builder, --provider)',
  optIn: true,
  comparedWith: ['vetted'],
  ratios: [
    { name: 'throughput, SDKs / heuristic+dry', against: 'vetted', load: 'throughput', metric: 'rate' },
    { name: 'p99 at 1 in flight, SDKs / heuristic+dry', against: 'vetted', load: 'latency', metric: 'p99' },
  ],
  async run(context) {
    const adapters = context.options.sdk;
    const sims = await startSimServers({ instant: true });
    try {
      let before = { openai: 0, replicate: 0 };
      const { loads } = await measureVetted(context, {
        system: sdkSystemName(adapters),
        part: 'sdk',
        adapters,
        env: sims.env,
        // Called after the requests were checked (the openai check calls the sim), before the loads.
        decorate: (target) => {
          before = simCalls(sims);
          return target;
        },
      });
      const runs = loads.reduce((sum, row) => sum + row.requests, 0) + context.options.warmup + Math.min(LATENCY_WARMUP, context.options.latencyRequests);
      const after = simCalls(sims);
      return {
        loads,
        section: {
          title: `What one ${sdkSystemName(adapters)} request does`,
          lines: [
            `As the vetted phase, but build = ${adapters.builder === 'openai' ? 'the openai builder (OpenAI SDK, one chat completion with a JSON schema)' : 'heuristic'},`,
            `  execute = ${adapters.provider === 'replicate' ? 'the replicate provider (Replicate SDK: create the prediction, record its id, poll)' : 'dry'}; local sims answer at once`,
            `  (startSimServers({ instant: true }), in the driver process: their CPU is in the driver column).`,
            `Sim calls per run: OpenAI ${fixed((after.openai - before.openai) / runs, 2)}, Replicate ${fixed((after.replicate - before.replicate) / runs, 2)} (over ${runs} runs).`,
          ],
        },
      };
    } finally {
      await sims.close();
    }
  },
};

function simCalls(sims: SimServers): { openai: number; replicate: number } {
  return { openai: sims.openai.requests.length, replicate: sims.replicate.requests.length };
}
