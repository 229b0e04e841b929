/** `vetted models`: the catalog that `"model": "owner/name"` references resolve against. */
import type { Command } from 'commander';
import { SHARED_TENANT } from '../../db/models-repository.ts';
import { registerModel } from '../../services/model-catalog.ts';
import { action, withSystem } from '../action.ts';
import { inFile, readJsonFile } from '../io.ts';

export function registerModelsCommand(program: Command): void {
  const models = program
    .command('models')
    .description('List the model catalog (or add to it with `vetted models add <file>`)')
    .option('--tenant <id>', 'show the models visible to this tenant', SHARED_TENANT)
    .action(
      action(async (options: { tenant: string }) => {
        await withSystem(async (system) => {
          const entries = await system.models.listCatalog(options.tenant);
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
    .description('Extract a model file (any of the three shapes) and register it as owner/name and owner/name:version')
    .option('--ref <owner/name>', 'the reference to register, when the file does not name its model (a version object)')
    .option('--tenant <id>', 'register for one tenant only (default: shared by all tenants)', SHARED_TENANT)
    .action(
      action(async (file: string, options: { ref?: string; tenant: string }) => {
        const source = await readJsonFile(file, 'model file');
        await withSystem(async (system) => {
          const registered = await registerModel(system, { tenantId: options.tenant, source, ref: options.ref }).catch((error: unknown) => {
            throw inFile(file, 'model file', error);
          });
          console.log(`registered ${registered.refs.join(' and ')} (${registered.modelSchema.fields.length} fields, schema ${registered.schemaKey})`);
        });
      }),
    );
}
