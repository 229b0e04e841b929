/** `vetted dry-run` and `vetted extract`: the pipeline in process (the same stage table), no Redis, no database. */
import type { Command } from 'commander';
import { isVettedError } from '../../errors.ts';
import { action } from '../action.ts';
import { inFile, printJson, readJsonFile } from '../io.ts';
import { loadAdapters, loadStrictReport } from '../local-root.ts';

export function registerDryRunCommands(program: Command): void {
  program
    .command('dry-run')
    .description('Extract → assemble → build → validate in process (no Redis, no database) and print the result as JSON')
    .requiredOption('--model <file>', 'model file: a Replicate model object, a version object, { model, example_input }, or a provider model file { provider, endpoint | operation, openapi } (docs/providers.md)')
    .requiredOption('--request <file>', 'GenerationRequest JSON file, e.g. { "prompt": "..." }')
    .option('--builder <name>', 'payload builder: heuristic | openai (default from the configuration)')
    .action(
      action(async (options: { model: string; request: string; builder?: string }) => {
        const [{ loadConfig }, { dryRun }] = await Promise.all([
          import('../../config.ts'),
          import('../../preview/dry-run.ts'),
        ]);
        const config = loadConfig();
        const modelSource = await readJsonFile(options.model, 'model file');
        const request = await readJsonFile(options.request, 'request file');
        // As the worker does: --builder, else the request's own `builder`, else the configured default.
        const result = await dryRun({ modelSource, request, builder: options.builder, config, adapters: await loadAdapters(config) }).catch((error: unknown) => {
          // Extraction errors are about the model file; everything else is about the request.
          const fromModel = isVettedError(error) && (error.code === 'MODEL_SOURCE_INVALID' || error.code === 'SCHEMA_UNSUPPORTED');
          throw fromModel ? inFile(options.model, 'model file', error) : inFile(options.request, 'request file', error);
        });
        // Why it would park, when it would: the reason and question a reviewer would be given.
        printJson(result);
      }),
    );

  program
    .command('extract')
    .description('Print the ModelSchema extracted from a model file (example values are never in it)')
    .requiredOption('--model <file>', 'model file: a Replicate model object, a version object, { model, example_input }, or a provider model file { provider, endpoint | operation, openapi } (docs/providers.md)')
    .option('--strict-report', 'print instead the OpenAI strict schema the openai builder sends and the residual rules AJV still enforces')
    .action(
      action(async (options: { model: string; strictReport?: boolean }) => {
        const source = await readJsonFile(options.model, 'model file');
        try {
          const { extractModelSchema } = await import('../../stages/schema-extractor/index.ts');
          const { modelSchema } = extractModelSchema(source);
          printJson(options.strictReport ? await loadStrictReport(modelSchema) : modelSchema);
        } catch (error) {
          throw inFile(options.model, 'model file', error);
        }
      }),
    );
}
