/**
 * `vetted keys` through a running API (POST/GET/DELETE /api/keys), and what the commands print either way, so
 * the output is the same whether the command opened the store or asked the API that holds it.
 */
import { ROLES } from '../../auth/api-keys.ts';
import { VettedError } from '../../errors.ts';
import { parseChoice } from '../option-parsers.ts';
import type { ApiClient, ThroughApiOptions } from '../through-api.ts';

interface KeyLike {
  id: string;
  tenantId: string;
  role: string;
  reviewerId: string | null;
  permissions: readonly string[];
  label: string | null;
  revokedAt: Date | string | null;
}

const KEY_ID = /^[a-z0-9]{12}$/;

/** The key on stdout, once, and what it is on stderr. */
export function printCreated(key: string, row: Pick<KeyLike, 'id' | 'tenantId' | 'role' | 'permissions'>, person?: string): void {
  const whose = person ? `, for ${person}` : '';
  process.stderr.write(`created key ${row.id} for tenant ${row.tenantId} (${row.role}${row.permissions.length ? ', override' : ''}${whose}); it is shown once:\n`);
  console.log(key);
}

export function printKeys(rows: readonly KeyLike[]): void {
  if (rows.length === 0) return console.log('No keys. Create one with `vetted keys create --tenant t --role reviewer`.');
  const revoked = (at: KeyLike['revokedAt']) => (at === null ? '' : typeof at === 'string' ? at : at.toISOString());
  console.table(rows.map((r) => ({ id: r.id, tenant: r.tenantId, role: r.role, reviewer: r.reviewerId ?? '', permissions: r.permissions.join(','), label: r.label, revoked: revoked(r.revokedAt) })));
}

export async function createKeyThroughApi(
  api: ApiClient,
  options: ThroughApiOptions & { tenant?: string; role?: string; reviewer?: string; override?: boolean; assign?: boolean; label?: string },
): Promise<void> {
  if (options.role === undefined && options.reviewer === undefined) throw new VettedError('INVALID_REQUEST', '--role is required (or --reviewer, whose role it takes)', { field: 'role' });
  const body = {
    ...(options.role !== undefined ? { role: parseChoice('--role', options.role, ROLES) } : {}),
    ...(options.reviewer !== undefined ? { reviewerId: options.reviewer } : {}),
    ...(options.override || options.assign ? { permissions: [...(options.override ? ['override'] : []), ...(options.assign ? ['reviews:assign'] : [])] } : {}),
    ...(options.label !== undefined ? { label: options.label } : {}),
    ...(options.tenant !== undefined ? { tenantId: options.tenant } : {}),
  };
  const { key, apiKey } = await api.post<{ key: string; apiKey: KeyLike }>('/api/keys', body);
  printCreated(key, apiKey, apiKey.reviewerId ?? undefined);
}

export async function listKeysThroughApi(api: ApiClient): Promise<KeyLike[]> {
  return (await api.get<{ items: KeyLike[] }>('/api/keys')).items;
}

export async function revokeKeyThroughApi(api: ApiClient, id: string): Promise<void> {
  if (!KEY_ID.test(id)) throw new VettedError('INVALID_ID', `key id "${id}" is not a key id (12 lowercase letters and digits, as \`vetted keys list\` shows)`, { field: 'id' });
  await api.delete(`/api/keys/${id}`);
}
