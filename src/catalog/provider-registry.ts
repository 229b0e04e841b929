/**
 * What the provider registry maps: each configured provider and the catalog models it runs, and the catalog
 * models no configured provider runs (a run of one is refused at submit). A model read from a provider's
 * published document (fal, OpenAI, Anthropic) names its provider; any other model (a Replicate schema) runs on
 * the configured default provider. Pure: the route hands in the names and the tenant's catalog.
 */
import type { CatalogEntry } from './catalog-store.ts';

export interface ProviderMapping {
  name: string;
  /** Every provider listed here has what it needs to be called (its key, or nothing for `dry`). */
  state: 'configured';
  /** Whether models without a provider of their own run here. */
  isDefault: boolean;
  /** Catalog references this provider runs, sorted. */
  models: string[];
}

export interface UnservedModels {
  /** The provider the models name, which this server has not configured. */
  provider: string;
  models: string[];
}

export interface ProviderRegistryView {
  providers: ProviderMapping[];
  unserved: UnservedModels[];
}

export function mapProviders(configured: readonly string[], defaultProvider: string, catalog: readonly Pick<CatalogEntry, 'ref' | 'provider'>[]): ProviderRegistryView {
  const served = new Map<string, Set<string>>(configured.map((name) => [name, new Set<string>()]));
  const unserved = new Map<string, Set<string>>();
  for (const entry of catalog) {
    const provider = entry.provider ?? defaultProvider;
    const into = served.get(provider) ?? unserved.get(provider) ?? new Set<string>();
    into.add(entry.ref);
    if (!served.has(provider)) unserved.set(provider, into);
  }
  const sorted = (refs: Set<string>) => [...refs].sort();
  return {
    providers: configured.map((name) => ({ name, state: 'configured', isDefault: name === defaultProvider, models: sorted(served.get(name)!) })),
    unserved: [...unserved].sort(([a], [b]) => a.localeCompare(b)).map(([provider, refs]) => ({ provider, models: sorted(refs) })),
  };
}
