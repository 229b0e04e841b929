/**
 * OpenTelemetry: one trace per run, from the API request through every stage job (the context carried in
 * the BullMQ job, through Redis) to the builder's LLM call and the provider call, with a reviewer's decision
 * in between; traceId on every log line and event of the run. Spans go to an in-memory exporter; a second
 * test checks OTLP/HTTP export against a local collector.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startTracing, type Tracing } from '../../src/observability/tracing.ts';
import { startOpenAiSim, startReplicateSim, type OpenAiSim, type ReplicateSim } from '../../src/sim/index.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';
import { eventually } from '../support/test-system.ts';

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let openai: OpenAiSim;
let replicate: ReplicateSim;
let api: ApiHarness;

beforeAll(async () => {
  tracing = startTracing({ serviceName: 'vetted-test', exporter });
  openai = await startOpenAiSim();
  replicate = await startReplicateSim({ stepMs: 20, apiToken: 'r8_trace_token' });
  api = await createApiHarness(
    { OPENAI_API_KEY: 'sk-trace', OPENAI_BASE_URL: openai.baseUrl, REPLICATE_API_TOKEN: 'r8_trace_token', REPLICATE_BASE_URL: replicate.baseUrl, VETTED_REPLICATE_POLL_MS: '10' },
    { tracing: true },
  );
});

afterAll(async () => {
  await api?.close();
  await Promise.all([openai?.close(), replicate?.close()]);
  await tracing?.shutdown();
});

const byName = (spans: readonly ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('tracing', () => {
  it('follows one run in one trace: API → every stage job (through Redis) → LLM call → provider call, across a decision', async () => {
    const submitted = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a traced comet', policy: 'require_human' } });
    expect(submitted.statusCode, submitted.body).toBe(202);
    const runId = json<{ id: string }>(submitted).id;
    const parked = await settle(api.system, runId, ['awaiting_human']);
    const review = parked.pendingReview!;
    const decided = await api.call('POST', `/api/runs/${runId}/decision`, { key: api.keys.reviewer, body: { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' } });
    expect(decided.statusCode, decided.body).toBe(200);
    const run = await settle(api.system, runId, ['completed']);

    const traceId = run.traceId;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const spans = await eventually(async () => {
      const inTrace = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
      return byName(inTrace, 'stage execute').length > 0 ? inTrace : undefined;
    }, 10_000, 'the execute stage span');

    // The API request that submitted the run opened its trace.
    const [request] = byName(spans, 'POST /api/runs');
    expect(request?.attributes['http.response.status_code']).toBe(202);
    expect(parentOf(request!)).toBeUndefined();
    for (const stage of ['extract', 'assemble', 'build', 'validate', 'execute']) expect(byName(spans, `stage ${stage}`), stage).toHaveLength(1);

    // The builder's LLM call and the provider's call are children of their stage visits.
    const [llm] = byName(spans, 'build openai');
    const [provider] = byName(spans, 'execute replicate');
    expect(parentOf(llm!)).toBe(byName(spans, 'stage build')[0]!.spanContext().spanId);
    expect(llm!.attributes).toMatchObject({ 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o-mini' });
    expect(parentOf(provider!)).toBe(byName(spans, 'stage execute')[0]!.spanContext().spanId);
    expect(provider!.attributes['vetted.execution.status']).toBe('succeeded');

    // Each stage job continues from the span that added it: the context travelled in the job, through Redis.
    const added = byName(spans, 'add vetted-extract.extract')[0]!;
    const processed = byName(spans, 'process vetted-extract')[0]!;
    expect(parentOf(added)).toBe(request!.spanContext().spanId);
    expect(parentOf(processed)).toBe(added.spanContext().spanId);
    expect(parentOf(byName(spans, 'stage extract')[0]!)).toBe(processed.spanContext().spanId);
    // Assemble is local: it runs in extract's job, its span a sibling of extract's under that job's. The LLM
    // build is not: its job is added from assemble's visit and continues from it, through Redis.
    const assemble = byName(spans, 'stage assemble')[0]!;
    expect(parentOf(assemble)).toBe(processed.spanContext().spanId);
    expect(assemble.attributes['vetted.local_after']).toBe('extract');
    expect(byName(spans, 'add vetted-assemble.assemble')).toEqual([]);
    expect(parentOf(byName(spans, 'add vetted-build.build')[0]!)).toBe(assemble.spanContext().spanId);

    // The reviewer's decision is its own request (its own trace); the execute job it caused stays in the run's
    // trace, linked to that request.
    const decision = exporter.getFinishedSpans().find((span) => span.name === 'POST /api/runs/:id/decision')!;
    expect(decision.spanContext().traceId).not.toBe(traceId);
    const [resumed] = byName(spans, 'enqueue execute');
    expect(resumed!.links.map((link) => link.context.spanId)).toEqual([decision.spanContext().spanId]);
    expect(parentOf(byName(spans, 'add vetted-execute.execute')[0]!)).toBe(resumed!.spanContext().spanId);

    // Nothing about this run went to another trace.
    const strays = exporter.getFinishedSpans().filter((span) => span.attributes['vetted.run_id'] === runId && span.spanContext().traceId !== traceId);
    expect(strays.map((span) => span.name)).toEqual([]);

    // traceId on every log line and every event of the run.
    const lines = api.system.logs.filter((line) => line.runId === runId);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.filter((line) => line.traceId !== traceId)).toEqual([]);
    const events = await api.system.store.events(runId);
    expect(events.length).toBeGreaterThan(5);
    expect(events.every((event) => event.traceId === traceId)).toBe(true);
  });

  it('exports to OTLP over HTTP at OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces', async () => {
    const received: { path: string; body: string }[] = [];
    const collector = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += String(chunk)));
      request.on('end', () => {
        received.push({ path: request.url ?? '', body });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    try {
      const config = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`, OTEL_SERVICE_NAME: 'vetted-otlp' });
      const otlp = startTracing({ serviceName: config.tracing.serviceName, otlpEndpoint: config.tracing.otlpEndpoint, register: false });
      otlp.provider.getTracer('vetted').startSpan('stage probe').end();
      await otlp.shutdown();
      expect(received.map((r) => r.path)).toEqual(['/v1/traces']);
      expect(received[0]!.body).toContain('stage probe');
      expect(received[0]!.body).toContain('vetted-otlp');
    } finally {
      await new Promise((resolve) => collector.close(resolve));
    }
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });
});
