/** `vetted models`: the catalog that `"model": "owner/name"` references resolve against. */
import type { Command } from 'commander';
import { SHARED_TENANT } from '../../catalog/catalog-store.ts';
import { action, withSystem } from '../action.ts';
import { parseModelRef, parseTenant } from '../option-parsers.ts';
import { inFile, readJsonFile } from '../io.ts';

export function registerModelsCommand(program: Command): void {
  const models = program
    .command('models')
    .description('List the model catalog (or add to it with `vetted models add <file>`)')
    .option('--tenant <id>', `show the models visible to this tenant (its own and the shared ones, \`${SHARED_TENANT}\`); default: every tenant's`)
    // `models add --tenant acme` must reach `add` (the program enables positional options too).
    .enablePositionalOptions()
    .action(
      action(async (options: { tenant?: string }) => {
        const tenant = options.tenant === undefined ? undefined : parseTenant(options.tenant, { shared: SHARED_TENANT });
        await withSystem(async (system) => {
          const entries = await system.models.listCatalog(tenant);
          if (entries.length === 0) {
            console.log('The catalog is empty. Add a model with `vetted models add examples/models/flux-schnell.model.json`.');
            return;
          }
          console.table(entries.map((e) => ({ ref: e.ref, tenant: e.tenantId, fields: e.fields, schemaKey: e.schemaKey.slice(0, 24) })));
        });
      }),
    );

  models
    .command('add <file>')
    .description('Extract a model file (a Replicate model, version or tool config, or a provider model file for fal or OpenAI) and register it under its name: owner/name and owner/name:version, fal-ai/flux/dev, openai/createImage')
    .option('--ref <owner/name>', 'register under this reference instead of the name the file gives (owner/name, or owner/name:version for that version only)')
    .option('--tenant <id>', 'register for one tenant only (default: shared by all tenants)', SHARED_TENANT)
    .action(
      action(async (file: string, options: { ref?: string; tenant: string }) => {
        const ref = options.ref === undefined ? undefined : await parseModelRef('--ref', options.ref);
        const tenantId = parseTenant(options.tenant, { shared: SHARED_TENANT });
        const source = await readJsonFile(file, 'model file');
        await withSystem(async (system) => {
          const { registerModel } = await import('../../catalog/model-catalog.ts');
          const registered = await registerModel(system, { tenantId, source, ref }).catch((error: unknown) => {
            throw inFile(file, 'model file', error);
          });
          const named = registered.modelSchema.model;
          const instead = ref !== undefined && named && !registered.refs.includes(named) ? ` (the file names ${named}; --ref wins)` : '';
          console.log(`registered ${registered.refs.join(' and ')}${instead}: ${registered.modelSchema.fields.length} fields, schema ${registered.schemaKey}`);
        });
      }),
    );
}
