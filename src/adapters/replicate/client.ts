/** The one place a Replicate SDK client is made, from the configuration (token and base URL). */
import Replicate from 'replicate';
import type { Config } from '../../config.ts';

/** Replicate's API, when no base URL is configured. */
export const REPLICATE_DEFAULT_BASE_URL = 'https://api.replicate.com/v1';

export type ReplicateConfig = Config['replicate'];

/**
 * A client with the token passed explicitly (never read by the SDK from the environment behind the
 * configuration's back) and plain URLs as outputs: Vetted stores them, it does not stream files.
 */
export function createReplicateClient(config: ReplicateConfig): Replicate {
  return new Replicate({
    auth: config.apiToken,
    baseUrl: config.baseUrl ?? REPLICATE_DEFAULT_BASE_URL,
    useFileOutput: false,
    userAgent: 'vetted',
  });
}
