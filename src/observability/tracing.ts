/**
 * OpenTelemetry tracing: one trace per run, across processes. The run's `traceId` IS its OpenTelemetry
 * trace id (32 hex digits; a run stored before this used a UUID, read without its dashes), so logs, audit
 * events and spans share one id.
 *
 *   POST /api/runs          the API's server span (api/plugins/tracing.ts); intake takes its trace id for the run
 *    └ add vetted-extract   BullMQ's producer span (bullmq-otel); the span context travels in the job, through Redis
 *       └ process …         BullMQ's consumer span, in whichever worker process takes the job
 *          └ stage extract  the stage visit (src/engine/processor.ts), then `add vetted-assemble` for the next …
 *             └ build openai / execute replicate   the builder's LLM call and the provider call (traced-adapters.ts)
 *
 * A move made outside the run's trace (a reviewer's decision is its own HTTP request) enqueues inside the run's
 * context, linked to the request that caused it (withRunContext), so the run's stages stay in the run's trace.
 *
 * Spans go to OTLP over HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (startTracing); otherwise the API is a
 * no-op and none of this costs more than a function call. Tests pass an in-memory exporter.
 */
import {
  context, isSpanContextValid, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags,
  type Attributes, type Context, type Link, type Span,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor, ParentBasedSampler, SamplingDecision, SimpleSpanProcessor,
  type Sampler, type SpanExporter, type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export { SpanKind };

const TRACER_NAME = 'vetted';

/** The tracer every Vetted span comes from (the global one: a no-op until startTracing registers a provider). */
export function tracer() {
  return trace.getTracer(TRACER_NAME);
}

export interface TracingOptions {
  serviceName: string;
  /** OTLP/HTTP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to `<endpoint>/v1/traces`. */
  otlpEndpoint?: string;
  /** Another exporter (tests: InMemorySpanExporter), exported span by span. */
  exporter?: SpanExporter;
  /** Register as the process's global provider (default true; false gives a provider to use directly). */
  register?: boolean;
}

export interface Tracing {
  provider: NodeTracerProvider;
  /** Exports what is buffered. */
  flush(): Promise<void>;
  /** Flushes, stops and unregisters the provider. */
  shutdown(): Promise<void>;
}

/**
 * BullMQ's own housekeeping (a worker waiting for its next job, the stalled-job check) makes a root span
 * every few seconds per worker; those say nothing about a run and would drown the traces that do.
 */
const BULLMQ_HOUSEKEEPING = /^(getNextJob|moveStalledJobsToWait|startStalledCheckTimer|rateLimit|close|pause|resume|delay|extendLocks) /;

const rootSampler: Sampler = {
  shouldSample: (_context, _traceId, name) => ({
    decision: BULLMQ_HOUSEKEEPING.test(name) ? SamplingDecision.NOT_RECORD : SamplingDecision.RECORD_AND_SAMPLED,
  }),
  toString: () => 'VettedRootSampler',
};

/** Starts a tracer provider exporting to OTLP (or `exporter`), registered globally unless told not to. */
export function startTracing(options: TracingOptions): Tracing {
  const processors: SpanProcessor[] = [];
  if (options.exporter) processors.push(new SimpleSpanProcessor(options.exporter));
  if (options.otlpEndpoint) {
    const url = `${options.otlpEndpoint.replace(/\/+$/, '')}/v1/traces`;
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url })));
  }
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    sampler: new ParentBasedSampler({ root: rootSampler }),
    spanProcessors: processors,
  });
  if (options.register !== false) provider.register();
  return {
    provider,
    flush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown();
      if (options.register !== false) {
        trace.disable();
        context.disable();
      }
    },
  };
}

/** A run's trace id as OpenTelemetry writes it (32 lowercase hex digits). */
export function otelTraceId(runTraceId: string): string {
  return runTraceId.replace(/-/g, '').toLowerCase();
}

/** The trace id a new run takes: the current span's (the API request that submitted it), else a fresh one. */
export function newRunTraceId(newId: () => string): string {
  const active = trace.getActiveSpan()?.spanContext();
  return active && isSpanContextValid(active) ? active.traceId : otelTraceId(newId());
}

/** The trace and span ids of the active span, for log lines (empty outside a span). */
export function activeTraceFields(): { traceId?: string; spanId?: string } {
  const active = trace.getActiveSpan()?.spanContext();
  return active && isSpanContextValid(active) ? { traceId: active.traceId, spanId: active.spanId } : {};
}

interface TracedRun {
  id: string;
  traceId: string;
}

/**
 * A context whose parent is the run's trace. The span id stands for the run as a whole: derived from the
 * run's id, the same in every process, and never a span of its own (trace viewers show it as the root).
 */
export function runContext(run: TracedRun): Context {
  const spanId = run.id.replace(/-/g, '').slice(0, 16).toLowerCase();
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: otelTraceId(run.traceId), spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
}

/** Whether the active context is already in the run's trace (a stage job's span, the submitting request). */
function inRunTrace(run: TracedRun): boolean {
  const active = trace.getActiveSpan()?.spanContext();
  return Boolean(active && isSpanContextValid(active) && active.traceId === otelTraceId(run.traceId));
}

/**
 * Runs `fn` in the run's trace: as it is when the active span belongs to the run, else under a span of the
 * run's trace named `name`, linked to the active span (the decision request that caused it).
 */
export function withRunContext<T>(run: TracedRun, name: string, fn: () => Promise<T>): Promise<T> {
  if (inRunTrace(run)) return fn();
  const caller = trace.getActiveSpan()?.spanContext();
  const links: Link[] = caller && isSpanContextValid(caller) ? [{ context: caller }] : [];
  return tracer().startActiveSpan(name, { links, attributes: { 'vetted.run_id': run.id } }, runContext(run), (span) => endWith(span, fn));
}

/**
 * Runs `fn` in a span named `name`, child of the active span when it belongs to the run's trace, else of the
 * run's own context. Errors are recorded on the span and rethrown.
 */
export function inRunSpan<T>(run: TracedRun, name: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  const parent = inRunTrace(run) ? context.active() : runContext(run);
  return tracer().startActiveSpan(name, { attributes: { 'vetted.run_id': run.id, ...attributes } }, parent, (span) => endWith(span, () => fn(span)));
}

/** A child span of the active context around `fn` (the builder's and the provider's calls). */
export function inSpan<T>(name: string, options: { kind?: SpanKind; attributes?: Attributes }, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, options, (span) => endWith(span, () => fn(span)));
}

async function endWith<T>(span: Span, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}
