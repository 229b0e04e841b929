/**
 * The production rule for secrets at rest: a model's secret-role input may only be stored sealed. In
 * production mode (NODE_ENV=production or VETTED_PRODUCTION=true) with no VETTED_DATA_KEY, a request or a
 * reviewer's edit that sets one is refused, naming the field. Outside production (the demo, the tests) such
 * values are stored as they are when no key is configured.
 */
import type { Config } from '../config.ts';
import { VettedError } from '../errors.ts';
import { secretFieldNames } from './sealer.ts';

/** @throws VettedError DATA_KEY_MISSING naming `<prefix>.<field>` of the first secret-role value. */
export function assertSecretsStorable(
  config: Pick<Config, 'production' | 'dataKeys'>,
  schema: { fields: readonly { name: string; role: string }[] } | undefined,
  values: Readonly<Record<string, unknown>> | null | undefined,
  prefix: string,
): void {
  if (!config.production || config.dataKeys.current || !values) return;
  const secret = secretFieldNames(schema).find((name) => values[name] !== undefined && values[name] !== null);
  if (secret === undefined) return;
  throw new VettedError('DATA_KEY_MISSING', `${prefix}.${secret} is a secret input of this model, and secrets are stored only encrypted in production: set VETTED_DATA_KEY (32 random bytes, base64) or leave the field out`, { field: `${prefix}.${secret}` });
}
