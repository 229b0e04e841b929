/**
 * `vetted`: the command line. Each command lives in src/cli/commands; this file only assembles them.
 * Configuration comes from the environment (see `vetted --help` and the README), parsed once here.
 * Registering a command loads only commander and small modules: a command imports what it runs (the system,
 * AJV, BullMQ, Fastify) inside its action, so `vetted --help` and a usage error answer at once.
 */
import { Command, CommanderError } from 'commander';
import { registerApiCommands } from './commands/api.ts';
import { registerAssignCommands } from './commands/assign.ts';
import { registerAuditCommands } from './commands/audit.ts';
import { registerDemoCommand } from './commands/demo-command.ts';
import { registerDryRunCommands } from './commands/dry-run.ts';
import { registerInterpretCommand } from './commands/interpret.ts';
import { registerKeyCommands } from './commands/keys.ts';
import { registerReviewerCommands } from './commands/reviewers.ts';
import { registerMcpCommand } from './commands/mcp.ts';
import { registerModelsCommand } from './commands/models.ts';
import { registerNotificationCommands } from './commands/notifications.ts';
import { registerPolicyCommands } from './commands/policy.ts';
import { registerRetentionCommands } from './commands/retention.ts';
import { registerRunCommands } from './commands/runs.ts';
import { registerSecretsCommands } from './commands/secrets.ts';
import { registerShadowCommands } from './commands/shadow.ts';
import { registerReportCommands } from './commands/report.ts';
import { registerStatsCommand } from './commands/stats.ts';
import { registerStoreCommands } from './commands/store.ts';
import { registerTaskTypeCommands } from './commands/task-types.ts';
import { registerWorkerCommands } from './commands/worker.ts';
import { ENV_HELP } from './env-help.ts';
import { EXIT_BAD_INPUT } from './io.ts';
import { guardOutput } from '../util/output-guard.ts';

// A reader that goes away (`vetted runs | head -1`, a closed terminal) must not crash a command with EPIPE: what
// is left to print is dropped, and the command finishes what it was doing (a worker keeps working).
guardOutput(() => undefined);

const program = new Command('vetted')
  .description('Zero-trust, schema-driven payload assembly for AI model runs, with human review built in.')
  .version('0.1.0')
  // Commander would exit 1 on a usage error; it throws instead, and the catch below makes that exit 2.
  .exitOverride()
  // An option belongs to the command it follows: `models add --tenant acme` is add's --tenant, not models'.
  .enablePositionalOptions()
  .addHelpText('after', ENV_HELP);

registerDryRunCommands(program);
registerModelsCommand(program);
registerRunCommands(program);
registerShadowCommands(program);
registerPolicyCommands(program);
registerSecretsCommands(program);
registerRetentionCommands(program);
registerAuditCommands(program);
registerAssignCommands(program);
registerInterpretCommand(program);
registerWorkerCommands(program);
registerApiCommands(program);
registerKeyCommands(program);
registerReviewerCommands(program);
registerMcpCommand(program);
registerTaskTypeCommands(program);
registerNotificationCommands(program);
registerStatsCommand(program);
registerReportCommands(program);
registerStoreCommands(program);
registerDemoCommand(program);

pointUsageErrorsAtHelp(program, 'vetted');

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  // --help, --version and `vetted help` are exit 0; a usage error (unknown command or option, missing
  // option or argument, a bare command with subcommands) is bad input, like a bad file.
  process.exitCode = error.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
}

/** After a usage error, name the help of the command that was being used (`vetted dry-run --help`). */
function pointUsageErrorsAtHelp(command: Command, path: string): void {
  command.showHelpAfterError(`(run \`${path} --help\` for usage)`);
  for (const sub of command.commands) pointUsageErrorsAtHelp(sub, `${path} ${sub.name()}`);
}
