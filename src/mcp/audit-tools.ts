/**
 * The audit tool: an assistant helping an auditor reads the tenant's audit chain a page at a time, the same
 * records GET /api/audit streams (src/audit). A page is checked for nothing here: `vetted audit verify` checks
 * a saved export, and a page's records carry the hashes that let anyone check them.
 */
import type { ExportAuditArgs } from '../generated/contracts.ts';
import { auditPage } from '../audit/audit-export.ts';
import { defineTool, type ToolDefinition } from './tool.ts';

/** MCP pages are read whole by an assistant: 200 records by default, 1,000 at most (the contract's bound). */
const DEFAULT_AUDIT_PAGE = 200;

export const AUDIT_TOOLS: readonly ToolDefinition[] = [
  defineTool<ExportAuditArgs>({
    name: 'export_audit',
    title: "Read the tenant's audit chain",
    description:
      'Every review raised, claimed, assigned, reminded, escalated, decided, overridden, answered, expired or cancelled, in chain order: who, when, ' +
      'what, the run and review, the payload hash the review showed, and each record\'s hash with the hash of the one before it. ' +
      'Pass nextAfterSeq back as afterSeq for the next page; since keeps records at or after an instant. Needs the audit:read permission.',
    permission: 'audit:read',
    args: { contract: 'mcp-tools', fragment: '#/definitions/ExportAuditArgs' },
    result: 'ExportAuditResult',
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run({ system, caller }, args) {
      const page = await auditPage(system.auditTrail, caller.tenantId, {
        afterSeq: args.afterSeq ?? 0,
        since: args.since ? new Date(args.since) : undefined,
        limit: args.limit ?? DEFAULT_AUDIT_PAGE,
      });
      return { status: 'ok', count: page.records.length, records: page.records, ...(page.nextAfterSeq ? { nextAfterSeq: page.nextAfterSeq } : {}) };
    },
  }),
];
