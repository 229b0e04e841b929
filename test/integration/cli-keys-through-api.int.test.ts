/**
 * `vetted keys create|list|revoke` while `vetted api --embedded` holds the store: found from --data-dir (or
 * --api), they go through the API's /api/keys with an admin key and print what they print on the store; a key
 * revoked that way is refused at once, and the last admin key cannot revoke itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli as runCliIn } from '../support/cli-process.ts';
import { startEmbeddedApi } from '../support/embedded-api.ts';

const home = mkdtempSync(path.join(tmpdir(), 'vetted-cli-keys-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const runCli = (args: string[], env: Record<string, string> = {}) => runCliIn(home, args, env);

describe('vetted keys through a running embedded API', () => {
  it('creates, lists and revokes keys of the admin key\'s tenant through the API found from --data-dir', async () => {
    const dataDir = path.join(home, 'team');
    const api = await startEmbeddedApi(home, dataDir);
    try {
      const { url, adminKey: admin } = api;
      const adminId = admin.slice(3, 15);
      const withAdmin = { VETTED_API_KEY: admin };

      const created = await runCli(['keys', 'create', '--role', 'reviewer', '--override', '--label', 'desk', '--data-dir', dataDir], withAdmin);
      expect(created.code, created.stderr).toBe(0);
      const key = created.stdout.trim();
      const id = key.slice(3, 15);
      expect(key).toMatch(/^vt_[a-z0-9]{12}\.\S+$/);
      expect(created.stderr).toContain(`created key ${id} for tenant default (reviewer, override); it is shown once:`);

      const wrongTenant = await runCli(['keys', 'create', '--role', 'admin', '--tenant', 'acme', '--api', url, '--api-key', admin]);
      expect(wrongTenant.code).not.toBe(0);
      expect(wrongTenant.stderr).toContain("A key is created for the caller's own tenant (default), not acme");

      const listed = await runCli(['keys', 'list', '--data-dir', dataDir], withAdmin);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).not.toContain(key.split('.')[1]);
      expect(listed.stdout.split('\n').find((line) => line.includes(id))).toMatch(/'default'.*'reviewer'.*'override'.*'desk'/);
      expect(listed.stdout).toContain(adminId);

      const byReviewer = await runCli(['keys', 'list', '--data-dir', dataDir], { VETTED_API_KEY: key });
      expect(byReviewer.code).not.toBe(0);
      expect(byReviewer.stderr).toContain('needs keys:manage');

      expect((await runCli(['runs', '--data-dir', dataDir], { VETTED_API_KEY: key })).code).toBe(0);
      const revoked = await runCli(['keys', 'revoke', id, '--data-dir', dataDir], withAdmin);
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(revoked.stdout.trim()).toBe(`revoked ${id}`);
      const refused = await runCli(['runs', '--data-dir', dataDir], { VETTED_API_KEY: key });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('refused the key (401');

      const lastAdmin = await runCli(['keys', 'revoke', adminId, '--data-dir', dataDir], withAdmin);
      expect(lastAdmin.code).not.toBe(0);
      expect(lastAdmin.stderr).toContain(`Key ${adminId} is the tenant's last admin key`);

      const badId = await runCli(['keys', 'revoke', 'nope', '--data-dir', dataDir], withAdmin);
      expect(badId.code).not.toBe(0);
      expect(badId.stderr).toContain('key id "nope" is not a key id');
    } finally {
      await api.stop();
    }
  }, 300_000);
});
