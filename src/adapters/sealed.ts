/**
 * The one place a sealed secret is opened (src/secrets/sealer.ts): just before the provider runs the payload.
 * The provider gets the real values; what it answers is sealed again under the same fields (a provider may
 * echo its input, as the dry provider does), so the result the ledger and the run store hold the sealed form.
 */
import type { ExecutionRequest, ModelProvider } from '../ports.ts';
import { isSealed, openSealed, sealFields, type Sealer } from '../secrets/sealer.ts';

export function openingProvider(provider: ModelProvider, sealer: Sealer): ModelProvider {
  const opened = (request: ExecutionRequest) => {
    const sealedFields = new Set(Object.entries(request.payload).filter(([, value]) => isSealed(value)).map(([name]) => name));
    return { request: sealedFields.size === 0 ? request : { ...request, payload: openSealed(sealer, request.payload) }, sealedFields };
  };
  const wrapped: ModelProvider = {
    ...provider,
    async execute(request, onStarted) {
      const { request: open, sealedFields } = opened(request);
      return sealFields(sealer, await provider.execute(open, onStarted), sealedFields);
    },
  };
  if (provider.resume) {
    const resume = provider.resume.bind(provider);
    wrapped.resume = async (handle, request) => {
      const { request: open, sealedFields } = opened(request);
      return sealFields(sealer, await resume(handle, open), sealedFields);
    };
  }
  return wrapped;
}
