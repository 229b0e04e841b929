/** The audit chain as PostgreSQL keeps it (src/db/schema/audit.ts): the AuditTrail port. */
import { and, asc, eq, gt, gte } from 'drizzle-orm';
import type { AuditRecord, AuditTrail } from '../audit/audit-record.ts';
import type { Db } from './client.ts';
import { auditRecords } from './schema/index.ts';

export function createAuditTrail(db: Db): AuditTrail {
  return {
    async page(tenantId, { afterSeq, since, limit }) {
      const rows = await db
        .select()
        .from(auditRecords)
        .where(and(eq(auditRecords.tenantId, tenantId), gt(auditRecords.seq, afterSeq), since ? gte(auditRecords.at, since) : undefined))
        .orderBy(asc(auditRecords.seq))
        .limit(limit);
      return rows.map((row): AuditRecord => ({ ...row, at: row.at.toISOString() }));
    },
  };
}
