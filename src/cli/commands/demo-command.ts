/** `vetted demo`'s command line; the demo itself (demo.ts) loads the API, the workers and the rest only when it runs. */
import type { Command } from 'commander';
import { action } from '../action.ts';
import { parseChoiceList } from '../option-parsers.ts';
import { DEMO_PROVIDERS } from '../demo/scenario.ts';

/** `--provider fal --provider anthropic` and `--provider fal,anthropic` say the same; checked in the action. */
const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Run the whole pipeline through the API on bundled sample models: runs that execute, runs that park and are resolved, a summary')
    .option('--sim', 'build with the openai builder and execute on the replicate provider, both against local servers that speak their APIs')
    .option(
      '--provider <names>',
      `also run a model of each named provider (${DEMO_PROVIDERS.join(', ')}; comma-separated or repeated), read from its published OpenAPI document and executed through its official SDK on a local server that speaks its API (fal: fal-ai/flux/dev; openai: openai/createSpeech, which parks for a missing voice; anthropic: anthropic/messages_post). Keys and base URLs in the environment are replaced by the local servers'; without --sim the heuristic builder stays`,
      collect,
      [],
    )
    .option('--embedded', 'run in this process on PGlite, without PostgreSQL or Redis (the default when either does not answer)')
    .action(
      action(async (options: { sim?: boolean; embedded?: boolean; provider: string[] }) => {
        const providers = [...new Set(options.provider.flatMap((value) => parseChoiceList('--provider', value, DEMO_PROVIDERS)))];
        await (await import('./demo.ts')).runDemo({ sim: options.sim, embedded: options.embedded, providers });
      }),
    );
}
