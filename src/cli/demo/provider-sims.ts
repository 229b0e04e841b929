/**
 * The local servers `vetted demo --provider` runs its provider models on: the fal queue API, OpenAI's API
 * and Anthropic's Messages API (src/sim), reached through the official SDKs with their base URLs pointed at
 * loopback. The demo never spends money: a key or base URL in the environment is replaced by the sim's.
 */
import {
  SIM_ANTHROPIC_API_KEY,
  SIM_FAL_KEY,
  SIM_OPENAI_API_KEY,
  startAnthropicSim,
  startFalSim,
  startOpenAiSim,
  type AnthropicSim,
  type FalSim,
  type OpenAiSim,
  type SimServers,
} from '../../sim/index.ts';
import type { DemoProvider } from './scenario.ts';

export interface ProviderSims {
  /** FAL_KEY/FAL_BASE_URL, OPENAI_API_KEY/OPENAI_BASE_URL and ANTHROPIC_API_KEY/ANTHROPIC_BASE_URL for the sims asked for; merge over the environment. */
  env: Readonly<Record<string, string>>;
  /** Where each sim listens, one line each. */
  describe(): string[];
  /** What each sim executed, and how much of it twice (always 0: the execution ledger's promise). */
  tally(): string[];
  close(): Promise<void>;
}

/**
 * Starts a sim per provider asked for. `shared` (the `--sim` servers) already runs an OpenAI server; the
 * openai provider uses that one rather than a second.
 */
export async function startProviderSims(providers: readonly DemoProvider[], shared?: SimServers): Promise<ProviderSims> {
  const started: { close(): Promise<void> }[] = [];
  try {
    const fal = providers.includes('fal') ? await startFalSim({ apiKey: SIM_FAL_KEY }) : undefined;
    if (fal) started.push(fal);
    const ownOpenAi = providers.includes('openai') && !shared ? await startOpenAiSim() : undefined;
    if (ownOpenAi) started.push(ownOpenAi);
    const openai = providers.includes('openai') ? (shared?.openai ?? ownOpenAi) : undefined;
    const anthropic = providers.includes('anthropic') ? await startAnthropicSim({ apiKey: SIM_ANTHROPIC_API_KEY }) : undefined;
    if (anthropic) started.push(anthropic);
    return {
      env: {
        // A status read every 50 ms: fal's default second would make the demo wait on nothing.
        ...(fal ? { FAL_KEY: SIM_FAL_KEY, FAL_BASE_URL: fal.baseUrl, VETTED_FAL_POLL_MS: '50' } : {}),
        ...(openai ? { OPENAI_API_KEY: SIM_OPENAI_API_KEY, OPENAI_BASE_URL: openai.baseUrl } : {}),
        ...(anthropic ? { ANTHROPIC_API_KEY: SIM_ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL: anthropic.baseUrl } : {}),
      },
      describe: () => [...(fal ? [`fal ${fal.baseUrl}`] : []), ...(openai ? [`OpenAI ${openai.baseUrl}`] : []), ...(anthropic ? [`Anthropic ${anthropic.baseUrl}`] : [])],
      tally: () => [...(fal ? [falTally(fal)] : []), ...(openai ? [openAiTally(openai)] : []), ...(anthropic ? [anthropicTally(anthropic)] : [])],
      async close() {
        await Promise.allSettled(started.map((sim) => sim.close()));
      },
    };
  } catch (error) {
    await Promise.allSettled(started.map((sim) => sim.close()));
    throw error;
  }
}

/** Submissions of the same input to the same endpoint beyond the first count as executed twice. */
function falTally(fal: FalSim): string {
  const submitted = fal.submitted().map((entry) => `${entry.endpoint} ${JSON.stringify(entry.input)}`);
  return `the fal simulator ran ${submitted.length} request(s), ${submitted.length - new Set(submitted).size} of them twice.`;
}

/** Model calls only (the chat completions of the --sim builder are not executions of a run). */
function openAiTally(openai: OpenAiSim): string {
  const calls = openai.executions.filter((execution) => execution.route !== 'chat.completions');
  const keys = calls.map((execution) => execution.key ?? '(no key)');
  return `the OpenAI simulator ran ${calls.length} model call(s) (${calls.map((call) => call.route).join(', ') || 'none'}), ${keys.length - new Set(keys).size} of them twice.`;
}

/** Messages calls by Idempotency-Key: a key that ran twice would be a run executed twice. */
function anthropicTally(anthropic: AnthropicSim): string {
  const keys = anthropic.executions.map((execution) => execution.key ?? '(no key)');
  return `the Anthropic simulator ran ${keys.length} message call(s), ${keys.length - new Set(keys).size} of them twice.`;
}
