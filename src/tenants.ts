/** Tenant ids: what API keys, runs, catalog entries and shadow settings are scoped by. */
import { VettedError } from './errors.ts';

const TENANT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** @throws VettedError INVALID_REQUEST (field `tenant`) for an id outside 1-64 letters, digits, `.`, `_`, `-`. */
export function assertTenantId(tenantId: string): string {
  if (!TENANT_PATTERN.test(tenantId)) throw new VettedError('INVALID_REQUEST', `tenant "${tenantId}" must be 1-64 letters, digits, . _ -`, { field: 'tenant' });
  return tenantId;
}
