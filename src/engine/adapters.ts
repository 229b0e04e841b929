/**
 * The engine's port for the outside models: which builders and providers this process can use, and the optional
 * helpers (the catalog's model fetcher, the chat-reply interpreter). src/adapters/registry.ts implements it from
 * the configuration; the composition roots build one and hand it to the engine.
 */
import type { ModelFetcher } from '../catalog/model-fetcher.ts';
import type { BuilderName, ProviderName } from '../config.ts';
import type { ModelProvider, PayloadBuilder } from '../ports.ts';
import type { ReplyInterpreter } from '../review/reply/types.ts';

export interface AdapterRegistry {
  builder(name: string): PayloadBuilder;
  provider(name: string): ModelProvider;
  builderNames(): BuilderName[];
  providerNames(): ProviderName[];
  /** Fetches models the catalog lacks (Replicate, when a token is configured); undefined otherwise. */
  modelFetcher(): ModelFetcher | undefined;
  /** Reads chat replies the fast path could not (an LLM, when OpenAI is configured); undefined otherwise. */
  replyInterpreter(): ReplyInterpreter | undefined;
}
