/**
 * Shadow mode for engineers: the stored V2-beside-V3 reports of the caller's tenant, and leak rates by model
 * and by field over look-back windows. Behind `shadow:read` (reviewers and admins): reports carry whole
 * payloads and the example values V2 leaked, which submitting apps have no need to read.
 */
import type { FastifyInstance } from 'fastify';
import type { ShadowReportRow } from '../../src/shadow/shadow-rows.ts';
import { DEFAULT_WINDOWS, parseWindows } from '../../src/shadow/since.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { param, query } from '../params.ts';
import { commonErrors, shadowReportPage, shadowSummaryAnswer } from '../schemas.ts';

const reportsQuery = query({
  model: param.model,
  field: { type: 'string', minLength: 1, maxLength: 200, description: 'only reports in which V2 leaked this top-level field' },
  since: { ...param.instant, description: 'only reports made at or after this instant' },
  limit: param.limit,
  cursor: param.cursor,
});

const LOOK_BACK = '([1-9][0-9]{0,5}m|[1-9][0-9]{0,4}h|[1-9][0-9]{0,3}d|[1-9][0-9]{0,2}w)';

const summaryQuery = query({
  model: param.model,
  windows: {
    type: 'string',
    maxLength: 100,
    // Each look-back at most 999999 minutes, 99999 hours, 9999 days or 999 weeks (under 20 years: src/shadow/since.ts).
    pattern: `^${LOOK_BACK}(,${LOOK_BACK}){0,5}$`,
    description: '1 to 6 comma-separated look-backs, e.g. 1h,24h,7d (the default): at most 999999m, 99999h, 9999d or 999w',
  },
});

interface ReportsQuery {
  model?: string;
  field?: string;
  since?: string;
  limit: number;
  cursor?: string;
}

export function registerShadowRoutes(app: FastifyInstance, system: System): void {
  app.get<{ Querystring: ReportsQuery }>('/api/shadow/reports', {
    config: { permission: 'shadow:read' },
    schema: {
      operationId: 'listShadowReports',
      tags: ['shadow'],
      summary: 'Shadow reports, newest first: both payloads, their diff, and every example value V2 leaked',
      querystring: reportsQuery,
      response: { 200: shadowReportPage, ...commonErrors },
    },
  }, async (request) => {
    const q = request.query;
    const page = await system.shadowReports.list(principal(request).tenantId, {
      model: q.model,
      field: q.field,
      since: q.since ? new Date(q.since) : undefined,
      limit: q.limit,
      cursor: q.cursor,
    });
    return { items: page.items.map(reportView), nextCursor: page.nextCursor };
  });

  app.get<{ Querystring: { model?: string; windows?: string } }>('/api/shadow/summary', {
    config: { permission: 'shadow:read' },
    schema: {
      operationId: 'getShadowSummary',
      tags: ['shadow'],
      summary: 'V2 leak rate by model and by field over look-back windows (default 1h, 24h, 7d), and V3 leaks (should be 0)',
      querystring: summaryQuery,
      response: { 200: shadowSummaryAnswer, ...commonErrors },
    },
  }, async (request) => {
    const windows = request.query.windows ? parseWindows(request.query.windows, 'querystring.windows') : DEFAULT_WINDOWS;
    const now = system.clock.now();
    const summaries = await system.shadowReports.summarizeWindows({ tenantId: principal(request).tenantId, model: request.query.model }, windows, now);
    return { generatedAt: now.toISOString(), model: request.query.model ?? null, windows: summaries.map(({ window, summary }) => ({ window, ...summary })) };
  });
}

/** A report as the API shows it: the stored row, dates as ISO strings, and a link to its run. */
function reportView(row: ShadowReportRow) {
  return {
    id: row.id,
    runId: row.runId,
    runAttempt: row.runAttempt,
    model: row.model,
    builder: row.builder,
    status: row.status,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    leakedFields: row.leakedFields,
    fieldsDiffering: row.fieldsDiffering,
    leaks: row.leaks,
    v3Leaks: row.v3Leaks,
    diff: row.diff,
    v2Payload: row.v2Payload,
    v3Payload: row.v3Payload,
    links: { run: `/api/runs/${row.runId}` },
  };
}
