/**
 * Builders and providers in spans (src/observability/tracing.ts): the builder's call (for `openai`, the LLM
 * call) and the provider's call, each a child of the stage visit that made it. The wrappers add nothing else:
 * every other property is the adapter's own (the replicate provider's `webhooks`), errors are rethrown.
 */
import { inSpan, SpanKind } from '../observability/tracing.ts';
import type { ModelProvider, PayloadBuilder } from '../ports.ts';

/** The builder's calls in `build <name>` spans (an LLM builder's is a client span naming the model). */
export function tracedBuilder(builder: PayloadBuilder, llmModel?: string): PayloadBuilder {
  const attributes = { 'vetted.builder': builder.name, ...(llmModel ? { 'gen_ai.system': builder.name, 'gen_ai.request.model': llmModel } : {}) };
  return {
    ...builder,
    build: (input, options) =>
      inSpan(`build ${builder.name}`, { kind: llmModel ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes }, async (span) => {
        const candidate = await builder.build(input, options);
        span.setAttribute('vetted.confidence', candidate.confidence);
        if (candidate.usage?.promptTokens !== undefined) span.setAttribute('gen_ai.usage.input_tokens', candidate.usage.promptTokens);
        if (candidate.usage?.completionTokens !== undefined) span.setAttribute('gen_ai.usage.output_tokens', candidate.usage.completionTokens);
        return candidate;
      }),
  };
}

/** The provider's calls in `execute <name>` / `resume <name>` client spans, with the prediction's status. */
export function tracedProvider(provider: ModelProvider): ModelProvider {
  const attributes = (request: { runId: string; step: string; model: string | null }) => ({
    'vetted.provider': provider.name, 'vetted.run_id': request.runId, 'vetted.step': request.step, 'vetted.model': request.model ?? 'unknown',
  });
  const traced: ModelProvider = {
    ...provider,
    execute: (request, onStarted) =>
      inSpan(`execute ${provider.name}`, { kind: SpanKind.CLIENT, attributes: attributes(request) }, async (span) => {
        const result = await provider.execute(request, onStarted);
        span.setAttribute('vetted.execution.status', result.status);
        return result;
      }),
  };
  if (provider.resume) {
    const resume = provider.resume.bind(provider);
    traced.resume = (handle, request) =>
      inSpan(`resume ${provider.name}`, { kind: SpanKind.CLIENT, attributes: { ...attributes(request), 'vetted.prediction_id': handle.predictionId } }, async (span) => {
        const result = await resume(handle, request);
        span.setAttribute('vetted.execution.status', result.status);
        return result;
      });
  }
  return traced;
}
