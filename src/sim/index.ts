/**
 * Local stand-ins for the OpenAI and Replicate HTTP APIs (and fal's and Anthropic's), used through the real SDKs with their base URLs
 * pointed at loopback: by the tests, the benchmarks and `vetted demo --sim`. Nothing here is a mock inside
 * Vetted: the adapters cannot tell these servers from the real ones except by what they answer.
 *
 *   const sims = await startSimServers({ instant: true });
 *   const config = loadConfig(commandEnv({}, sims.env));   // openai builder + replicate provider (config.ts)
 *   …
 *   await sims.close();
 */
import { startOpenAiSim, type OpenAiSim, type OpenAiSimOptions } from './openai-sim.ts';
import { startReplicateSim, type ReplicateSim, type ReplicateSimOptions } from './replicate-sim.ts';

export { OPENAI_SIM_MARKERS, startOpenAiSim, type OpenAiSim, type OpenAiSimBehavior, type OpenAiSimOptions, type RecordedChatRequest } from './openai-sim.ts';
export { REPLICATE_SIM_MARKERS, type CreatedPrediction, type PredictionOutcome } from './replicate-predictions.ts';
export { startReplicateSim, type ReplicateSim, type ReplicateSimOptions, type SimRequest } from './replicate-sim.ts';
export { startFalSim, type FalSim, type FalSimOptions, type FalSubmission } from './fal-sim.ts';
export { startAnthropicSim, type AnthropicSim, type AnthropicSimOptions } from './anthropic-sim.ts';

/** Placeholder credentials for the sims: not secrets, but long enough that the redactor treats them as such. */
export const SIM_OPENAI_API_KEY = 'sk-sim-local-not-a-secret';
export const SIM_REPLICATE_API_TOKEN = 'r8_sim_local_not_a_secret';
export const SIM_FAL_KEY = 'fal_sim_local_not_a_secret';
export const SIM_ANTHROPIC_API_KEY = 'sk-ant-sim-local-not-a-secret';

export interface SimServersOptions {
  /**
   * No waiting anywhere: predictions finish at the first poll and polling starts at 10 ms (for benchmarks,
   * where the sims must not be what is measured).
   */
  instant?: boolean;
  openai?: OpenAiSimOptions;
  replicate?: ReplicateSimOptions;
}

export interface SimServers {
  openai: OpenAiSim;
  replicate: ReplicateSim;
  /**
   * Environment variables that point Vetted at the sims (base URLs, placeholder credentials, and with
   * `instant` a 10 ms poll interval); merge them over the real environment before loadConfig.
   */
  env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** Starts both servers on 127.0.0.1 (ports chosen by the OS unless given). */
export async function startSimServers(options: SimServersOptions = {}): Promise<SimServers> {
  const openai = await startOpenAiSim(options.openai);
  const replicate = await startReplicateSim({ ...(options.instant ? { stepMs: 0 } : {}), ...options.replicate }).catch(async (error: unknown) => {
    await openai.close();
    throw error;
  });
  const env: Record<string, string> = {
    OPENAI_BASE_URL: openai.baseUrl,
    OPENAI_API_KEY: SIM_OPENAI_API_KEY,
    REPLICATE_BASE_URL: replicate.baseUrl,
    REPLICATE_API_TOKEN: SIM_REPLICATE_API_TOKEN,
    ...(options.instant ? { VETTED_REPLICATE_POLL_MS: '10' } : {}),
  };
  return {
    openai,
    replicate,
    env,
    async close() {
      await Promise.allSettled([openai.close(), replicate.close()]);
    },
  };
}
