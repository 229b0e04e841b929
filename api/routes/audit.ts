/**
 * The tenant's audit export (admin): every review event with who, when, what and the payload hash, each record
 * carrying the hash of the one before it. Streamed a page at a time, so a long history never sits in memory;
 * `vetted audit verify` checks a saved copy.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { auditExportLines, AUDIT_FORMATS, type AuditFormat } from '../../src/audit/audit-export.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { param, query } from '../params.ts';
import { commonErrors } from '../schemas.ts';

const CONTENT_TYPES: Record<AuditFormat, string> = { ndjson: 'application/x-ndjson', csv: 'text/csv; charset=utf-8' };

const auditQuery = query({
  since: { ...param.instant, description: 'only records at or after this instant (the chain is verified from the first record given)' },
  format: { type: 'string', enum: [...AUDIT_FORMATS], default: 'ndjson', description: 'ndjson (one record per line) or csv (a header, then one record per line)' },
});

export function registerAuditRoutes(app: FastifyInstance, system: System): void {
  app.get<{ Querystring: { since?: string; format: AuditFormat } }>('/api/audit', {
    config: { permission: 'audit:read' },
    schema: {
      operationId: 'exportAudit',
      tags: ['audit'],
      summary: "The caller's tenant's audit chain: every review raised, claimed, assigned, reminded, escalated, decided, overridden, answered, expired or cancelled",
      description:
        'Each record names who, when, what, the run and review, and the hash of the payload the review showed; `prevHash` is the hash of the record ' +
        'before it and `hash` its own (sha256 over the JSON array of its fields, docs/teams.md). `vetted audit verify FILE` checks a saved export. ' +
        'Records are kept when retention purges a run\'s documents.',
      querystring: auditQuery,
      response: {
        200: {
          description: 'The records in chain order',
          content: { [CONTENT_TYPES.ndjson]: { schema: { type: 'string' } }, [CONTENT_TYPES.csv]: { schema: { type: 'string' } } },
        },
        ...commonErrors,
      },
    },
  }, async (request, reply) => {
    const { since, format } = request.query;
    const tenantId = principal(request).tenantId;
    const lines = auditExportLines(system.auditTrail, tenantId, { format, since: since ? new Date(since) : undefined });
    const extension = format === 'csv' ? 'csv' : 'ndjson';
    return reply
      .type(CONTENT_TYPES[format])
      .header('content-disposition', `attachment; filename="audit-${tenantId}.${extension}"`)
      .send(Readable.from(lines));
  });
}
