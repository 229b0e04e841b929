/**
 * The offline provider: "executes" a payload by recording it as the result. Nothing leaves the process,
 * so running it twice is harmless (sideEffectFree), which lets the executor retry it freely.
 */
import type { ExecutionResult } from '../generated/contracts.ts';
import type { ExecutionRequest, ModelProvider } from '../ports.ts';

export function createDryProvider(): ModelProvider {
  return {
    name: 'dry',
    sideEffectFree: true,
    async execute(request: ExecutionRequest): Promise<ExecutionResult> {
      return {
        provider: 'dry',
        status: 'succeeded',
        output: { model: request.model, version: request.version, input: request.payload },
        metrics: { predictTimeMs: 0 },
      };
    },
  };
}
