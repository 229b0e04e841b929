/** `vetted demo`'s command line; the demo itself (demo.ts) loads the API, the workers and the rest only when it runs. */
import type { Command } from 'commander';
import { action } from '../action.ts';

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Run the whole pipeline through the API on bundled sample models: runs that execute, runs that park and are resolved, a summary')
    .option('--sim', 'build with the openai builder and execute on the replicate provider, both against local servers that speak their APIs')
    .option('--embedded', 'run in this process on PGlite, without PostgreSQL or Redis (the default when either does not answer)')
    .action(action(async (options: { sim?: boolean; embedded?: boolean }) => (await import('./demo.ts')).runDemo(options)));
}
