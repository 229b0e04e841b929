/**
 * Reports over what people did: the corrections report (what reviewers change in the builder's payloads, per
 * model and field, week by week). Behind `reviews:read`: it shows the values reviewers changed from and to
 * (free text grouped, secret-role inputs counted, never shown).
 */
import type { FastifyInstance } from 'fastify';
import { buildCorrectionsReport } from '../../src/reports/corrections-queries.ts';
import { DEFAULT_REPORT_WEEKS, MAX_REPORT_WEEKS, reportWindow } from '../../src/reports/report-window.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { param, query } from '../params.ts';
import { commonErrors, ref } from '../schemas.ts';

const correctionsQuery = query({
  model: param.model,
  since: { ...param.instant, description: 'decisions at or after this instant (default: `weeks` weeks before `until`)' },
  until: { ...param.instant, description: 'decisions before this instant (default: now)' },
  weeks: param.integer(1, MAX_REPORT_WEEKS, { default: DEFAULT_REPORT_WEEKS, description: 'the look-back in weeks when `since` is not given (1 to 520, default 12)' }),
});

interface CorrectionsQuerystring {
  model?: string;
  since?: string;
  until?: string;
  weeks: number;
}

export function registerReportRoutes(app: FastifyInstance, system: System): void {
  app.get<{ Querystring: CorrectionsQuerystring }>('/api/reports/corrections', {
    config: { permission: 'reviews:read' },
    schema: {
      operationId: 'getCorrectionsReport',
      tags: ['reviews'],
      description: 'model: owner/name counts every version, owner/name:version that version only.',
      summary: "What reviewers correct: per model and field, how often a person's edit replaced the builder's value, from what to what, the issues behind it, per week",
      querystring: correctionsQuery,
      response: { 200: ref('corrections-report'), ...commonErrors },
    },
  }, async (request) => {
    const now = system.clock.now();
    const q = request.query;
    const window = reportWindow({ since: q.since ? new Date(q.since) : undefined, until: q.until ? new Date(q.until) : undefined, weeks: q.weeks }, now, { since: 'querystring.since' });
    return buildCorrectionsReport({ corrections: system.corrections, models: system.models, now }, { tenantId: principal(request).tenantId, model: request.query.model, ...window });
  });
}
