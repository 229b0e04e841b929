/** `vetted audit export` (a tenant's hash-chained audit records) and `vetted audit verify` (a saved export, offline). */
import type { Command } from 'commander';
import { VettedError } from '../../errors.ts';
import { action, withSystem } from '../action.ts';
import { EXIT_FAILURE } from '../io.ts';
import { parseChoice, parseTenant } from '../option-parsers.ts';

interface ExportOptions {
  tenant: string;
  since?: string;
  format: string;
  out?: string;
}

export function registerAuditCommands(program: Command): void {
  const audit = program.command('audit').description('The audit chain: every review event with who, when, what and the payload hash, each record chained to the one before');
  audit
    .command('export')
    .description("Write a tenant's audit records in chain order (to stdout, or --out FILE)")
    .requiredOption('--tenant <id>', 'tenant')
    .option('--since <when>', 'only records since: a look-back (24h, 7d) or a date (2026-01-31)')
    .option('--format <format>', 'ndjson or csv', 'ndjson')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(action(exportAudit));
  audit
    .command('verify')
    .description('Check a saved export: exit 0 and "chain intact, N records", or exit 1 naming the first record altered, removed or reordered')
    .argument('<file>', 'an export written by `vetted audit export` or GET /api/audit')
    .action(action(verifyAudit));
}

async function exportAudit(options: ExportOptions): Promise<void> {
  const tenantId = parseTenant(options.tenant);
  const { AUDIT_FORMATS, auditExportLines } = await import('../../audit/audit-export.ts');
  const format = parseChoice('--format', options.format, AUDIT_FORMATS);
  const { parseSince } = await import('../../shadow/since.ts');
  const since = options.since === undefined ? undefined : parseSince(options.since, new Date(), '--since');
  await withSystem(async (system) => {
    const { Readable } = await import('node:stream');
    const { pipeline } = await import('node:stream/promises');
    const { createWriteStream } = await import('node:fs');
    const lines = Readable.from(auditExportLines(system.auditTrail, tenantId, { format, since }));
    if (options.out === undefined) return pipeline(lines, process.stdout, { end: false });
    await pipeline(lines, createWriteStream(options.out)).catch((error: unknown) => {
      throw new VettedError('INVALID_REQUEST', `--out ${options.out}: cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { field: 'out' });
    });
  });
}

async function verifyAudit(file: string): Promise<void> {
  const { readFile } = await import('node:fs/promises');
  const { verifyAuditChain } = await import('../../audit/audit-verify.ts');
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new VettedError('INVALID_REQUEST', `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { field: 'file' });
  });
  const verdict = verifyAuditChain(text);
  if (verdict.intact) {
    console.log(`chain intact, ${verdict.records} records`);
    return;
  }
  console.log(`chain broken: ${verdict.message}`);
  process.exitCode = EXIT_FAILURE;
}
