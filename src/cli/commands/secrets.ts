/** `vetted secrets rotate`: re-seal every stored secret under the current VETTED_DATA_KEY (src/db/secrets-rotation.ts). */
import type { Command } from 'commander';
import { VettedError } from '../../errors.ts';
import { action, withSystem } from '../action.ts';

export function registerSecretsCommands(program: Command): void {
  const secrets = program.command('secrets').description("Secrets at rest: models' secret inputs, sealed with AES-256-GCM under VETTED_DATA_KEY");
  secrets
    .command('rotate')
    .description('Re-seal every stored secret under the current key (VETTED_DATA_KEY, id VETTED_DATA_KEY_ID); the old keys must be in VETTED_DATA_KEYS_PREVIOUS (id:key,...) while it runs. Safe to run again.')
    .action(
      action(async () => {
        await withSystem(async (system, config) => {
          if (!config.dataKeys.current) {
            throw new VettedError('CONFIG_INVALID', 'VETTED_DATA_KEY is not set: set the new key (and VETTED_DATA_KEY_ID), put the old ones in VETTED_DATA_KEYS_PREVIOUS as id:key, then run this again', { field: 'VETTED_DATA_KEY' });
          }
          const report = await system.rotateSealedValues((table, rows) => process.stderr.write(`${table}: ${rows} rows with sealed values read\n`));
          for (const [table, count] of Object.entries(report.resealed)) console.log(`${table}: ${count} re-sealed under ${config.dataKeys.current.id} (${report.sealed[table] ?? 0} hold sealed values)`);
        });
      }),
    );
}
