/** `vetted task-types`: the kinds of task a tenant accepts for human review, each with its JSON Schema. */
import type { Command } from 'commander';
import { action, withSystem } from '../action.ts';
import { inFile, readJsonFile } from '../io.ts';
import { parseTenant } from '../option-parsers.ts';

export function registerTaskTypeCommands(program: Command): void {
  const types = program
    .command('task-types')
    .description('Task types a tenant accepts for review: a name, the JSON Schema its payloads meet, which confidence × impact pairs are approved without a person');
  types
    .command('add')
    .description('Register a task type from a file ({name, description?, schema, autoApprove?}; see examples/task-types/), or replace its schema and routing')
    .requiredOption('--file <file>', 'the task type JSON file')
    .requiredOption('--tenant <id>', 'the tenant that accepts it')
    .action(
      action(async (options: { file: string; tenant: string }) => {
        const tenantId = parseTenant(options.tenant);
        const definition = await readJsonFile(options.file, 'task type file');
        await withSystem(async (system) => {
          const { registerTaskType } = await import('../../tasks/task-types.ts');
          const row = await registerTaskType(system.tasks, tenantId, definition).catch((error: unknown) => {
            throw inFile(options.file, 'task type file', error);
          });
          const routing = row.autoApprove.length === 0 ? 'every task waits for a person' : `approved at once: ${row.autoApprove.map((c) => `${c.confidence}+${c.impact}`).join(', ')}`;
          console.log(`registered task type ${row.name} for tenant ${row.tenantId} (schema ${row.schemaHash.slice(0, 12)}; ${routing})`);
        });
      }),
    );
  types
    .command('list')
    .description('List task types')
    .option('--tenant <id>', 'one tenant (default: every tenant)')
    .action(
      action((options: { tenant?: string }) =>
        withSystem(async (system) => {
          const rows = await system.tasks.listTypes(options.tenant === undefined ? undefined : parseTenant(options.tenant));
          if (rows.length === 0) return console.log('No task types. Register one with `vetted task-types add --file examples/task-types/lgv-troubleshooting.task-type.json --tenant acme`.');
          console.table(rows.map((r) => ({ tenant: r.tenantId, name: r.name, schema: r.schemaHash.slice(0, 12), autoApprove: r.autoApprove.map((c) => `${c.confidence}+${c.impact}`).join(' '), updated: r.updatedAt.toISOString() })));
        }),
      ),
    );
}
