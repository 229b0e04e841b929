/**
 * `vetted`: the command line. Each command lives in src/cli/commands; this file only assembles them.
 * Configuration comes from the environment (see `vetted --help` and the README), parsed once here.
 */
import { Command } from 'commander';
import { registerApiCommands } from './commands/api.ts';
import { registerDemoCommand } from './commands/demo.ts';
import { registerDryRunCommands } from './commands/dry-run.ts';
import { registerModelsCommand } from './commands/models.ts';
import { registerRunCommands } from './commands/runs.ts';
import { registerShadowCommands } from './commands/shadow.ts';
import { registerWorkerCommands } from './commands/worker.ts';
import { ENV_HELP } from './env-help.ts';

const program = new Command('vetted')
  .description('Zero-trust, schema-driven payload assembly for AI model runs, with human review built in.')
  .version('0.1.0')
  .showHelpAfterError('(run `vetted --help` for usage)')
  .addHelpText('after', ENV_HELP);

registerDryRunCommands(program);
registerModelsCommand(program);
registerRunCommands(program);
registerShadowCommands(program);
registerWorkerCommands(program);
registerApiCommands(program);
registerDemoCommand(program);

await program.parseAsync(process.argv);
