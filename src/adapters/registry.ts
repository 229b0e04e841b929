/**
 * Which builders and providers this process can use, decided once from the configuration.
 * A run names its builder and provider; asking for one that is not configured is a clear error.
 *
 * Always: `heuristic` and `dry`. With OPENAI_API_KEY or OPENAI_BASE_URL: the `openai` builder (any
 * OpenAI-compatible server); with OPENAI_API_KEY also the `openai` provider. With REPLICATE_API_TOKEN:
 * `replicate`, plus the model fetcher the catalog falls back to for models it does not know. With FAL_KEY:
 * `fal`; with ANTHROPIC_API_KEY: `anthropic`. Each holds one SDK client for the process.
 */
import type { BuilderName, Config, ProviderName } from '../config.ts';
import { VettedError } from '../errors.ts';
import type { ModelProvider, PayloadBuilder } from '../ports.ts';
import { createHeuristicBuilder } from '../builders/heuristic-builder.ts';
import { createDryProvider } from './dry-provider.ts';
import { tracedBuilder, tracedProvider } from './traced.ts';
import { openingProvider } from './sealed.ts';
import { sealerFromConfig } from '../secrets/sealer.ts';
import { createOpenAiBuilder } from './openai/openai-builder.ts';
import { createReplyInterpreter } from './openai/reply-interpreter.ts';
import type { ReplyInterpreter } from '../review/reply/types.ts';
import { createFalProvider } from './fal/fal-provider.ts';
import { createOpenAiProvider } from './openai/openai-provider.ts';
import { createAnthropicProvider } from './anthropic/anthropic-provider.ts';
import { createReplicateClient } from './replicate/client.ts';
import { createReplicateModelFetcher } from './replicate/model-fetcher.ts';
import type { ModelFetcher } from '../catalog/model-fetcher.ts';
import type { AdapterRegistry } from '../ports.ts';

/** The engine's port (src/ports.ts), implemented here. */
export type { AdapterRegistry } from '../ports.ts';
import { createReplicateProvider } from './replicate/replicate-provider.ts';

export interface AdapterOverrides {
  builders?: Partial<Record<string, PayloadBuilder>>;
  providers?: Partial<Record<string, ModelProvider>>;
  /** Replaces the configured model fetcher (null: none). */
  modelFetcher?: ModelFetcher | null;
  /** Replaces the configured reply interpreter (null: none). */
  replyInterpreter?: ReplyInterpreter | null;
}

export function createAdapterRegistry(config: Config, overrides: AdapterOverrides = {}): AdapterRegistry {
  const configured = configuredAdapters(config);
  const builders = traceEach<PayloadBuilder>({ heuristic: createHeuristicBuilder(), ...configured.builders, ...overrides.builders }, (builder, name) =>
    tracedBuilder(builder, name === 'openai' ? config.openai.model : undefined));
  // Secret inputs stay sealed until the provider call itself (sealed.ts); then every call is a span.
  const sealer = sealerFromConfig(config.dataKeys);
  const providers = traceEach<ModelProvider>({ dry: createDryProvider(), ...configured.providers, ...overrides.providers }, (provider) => tracedProvider(openingProvider(provider, sealer)));
  const fetcher = overrides.modelFetcher === undefined ? configured.modelFetcher : (overrides.modelFetcher ?? undefined);
  const interpreter = overrides.replyInterpreter === undefined ? configured.replyInterpreter : (overrides.replyInterpreter ?? undefined);
  return {
    builder(name) {
      const builder = builders[name];
      if (!builder) throw notConfigured('builder', name, Object.keys(builders));
      return builder;
    },
    provider(name) {
      const provider = providers[name];
      if (!provider) throw notConfigured('provider', name, Object.keys(providers));
      return provider;
    },
    builderNames: () => Object.keys(builders).filter((n) => builders[n]) as BuilderName[],
    providerNames: () => Object.keys(providers).filter((n) => providers[n]) as ProviderName[],
    modelFetcher: () => fetcher,
    replyInterpreter: () => interpreter,
  };
}

/** Every adapter in its tracing wrapper (traced.ts): one span per builder or provider call. */
function traceEach<T>(adapters: Partial<Record<string, T>>, wrap: (adapter: T, name: string) => T): Record<string, T | undefined> {
  return Object.fromEntries(Object.entries(adapters).map(([name, adapter]) => [name, adapter === undefined ? undefined : wrap(adapter, name)]));
}

interface ConfiguredAdapters {
  builders: Record<string, PayloadBuilder>;
  providers: Record<string, ModelProvider>;
  modelFetcher: ModelFetcher | undefined;
  replyInterpreter: ReplyInterpreter | undefined;
}

/** The real-service adapters the configuration enables. Creating them does no I/O. */
function configuredAdapters(config: Config): ConfiguredAdapters {
  const builders: Record<string, PayloadBuilder> = {};
  const providers: Record<string, ModelProvider> = {};
  let modelFetcher: ModelFetcher | undefined;
  let replyInterpreter: ReplyInterpreter | undefined;
  // A base URL alone is enough: local servers (Ollama, vLLM, llama.cpp) need no key.
  if (config.openai.apiKey || config.openai.baseUrl) {
    builders.openai = createOpenAiBuilder(config.openai);
    replyInterpreter = createReplyInterpreter({ openai: config.openai, timeoutMs: config.interpreterTimeoutMs });
  }
  // The provider spends money on the account: it needs a key, a base URL alone is not enough.
  if (config.openai.apiKey) {
    providers.openai = createOpenAiProvider({
      apiKey: config.openai.apiKey, baseUrl: config.openai.baseUrl, timeoutMs: config.openaiProvider.timeoutMs, maxRetries: config.openai.maxRetries, uploads: uploadPolicy(config),
    });
  }
  if (config.fal.apiKey) {
    providers.fal = createFalProvider({ ...config.fal, apiKey: config.fal.apiKey });
  }
  if (config.anthropic.apiKey) {
    providers.anthropic = createAnthropicProvider({ apiKey: config.anthropic.apiKey, baseUrl: config.anthropic.baseUrl, timeoutMs: config.anthropic.timeoutMs, maxRetries: config.anthropic.maxRetries });
  }
  if (config.replicate.apiToken) {
    const client = createReplicateClient(config.replicate);
    providers.replicate = createReplicateProvider(config.replicate, { client });
    modelFetcher = createReplicateModelFetcher(client);
  }
  return { builders, providers, modelFetcher, replyInterpreter };
}

function uploadPolicy(config: Config) {
  return { allowPrivate: config.uploads.allowPrivate, maxBytes: config.limits.maxAttachmentBytes };
}

/** What enables each adapter, for the error that names one this server lacks. */
const SETTING_FOR: Record<'builder' | 'provider', Record<string, string>> = {
  builder: { openai: 'OPENAI_API_KEY or OPENAI_BASE_URL' },
  provider: { openai: 'OPENAI_API_KEY', replicate: 'REPLICATE_API_TOKEN', fal: 'FAL_KEY', anthropic: 'ANTHROPIC_API_KEY' },
};

function notConfigured(kind: 'builder' | 'provider', name: string, available: string[]): VettedError {
  const hint = SETTING_FOR[kind][name] ? ` (set ${SETTING_FOR[kind][name]})` : '';
  return new VettedError('INVALID_REQUEST', `${kind} "${name}" is not configured${hint}; available: ${available.join(', ')}`, {
    field: kind,
  });
}
