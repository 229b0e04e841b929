import { describe, expect, it } from 'vitest';
import { configSecrets, loadConfig } from '../../src/config.ts';

describe('loadConfig', () => {
  it('applies defaults: offline builder and provider without keys', () => {
    const config = loadConfig({});
    expect(config.databaseUrl).toMatch(/^postgres:\/\//);
    expect(config.queuePrefix).toBe('vetted');
    expect(config.defaults.builder).toBe('heuristic');
    expect(config.defaults.provider).toBe('dry');
    expect(config.concurrency.build).toBe(16);
    expect(Object.isFrozen(config.concurrency)).toBe(true);
  });

  it('defaults to the real services when their keys are set, and per-stage concurrency overrides the global one', () => {
    const config = loadConfig({ OPENAI_API_KEY: 'sk-test-123456', REPLICATE_API_TOKEN: 'r8_abcdefgh', VETTED_CONCURRENCY: '3', VETTED_CONCURRENCY_EXECUTE: '9' });
    expect(config.defaults.builder).toBe('openai');
    expect(config.defaults.provider).toBe('replicate');
    expect(config.concurrency.extract).toBe(3);
    expect(config.concurrency.execute).toBe(9);
    expect(configSecrets(config)).toEqual(['sk-test-123456', 'r8_abcdefgh']);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ VETTED_QUEUE_PREFIX: 'has:colon' }, 'VETTED_QUEUE_PREFIX'],
    [{ VETTED_QUEUE_PREFIX: '' }, 'VETTED_QUEUE_PREFIX'],
    [{ VETTED_CONCURRENCY_BUILD: '0' }, 'VETTED_CONCURRENCY_BUILD'],
    [{ VETTED_BUILDER: 'gpt' }, 'VETTED_BUILDER'],
    [{ VETTED_MCP_ALLOWED_ORIGINS: 'https://ok.example,evil.example' }, 'VETTED_MCP_ALLOWED_ORIGINS'],
    [{ VETTED_MCP_ALLOWED_ORIGINS: 'https://ok.example/path' }, 'VETTED_MCP_ALLOWED_ORIGINS'],
    [{ VETTED_MCP_ALLOWED_HOSTS: 'a.example,b.example:80' }, 'VETTED_MCP_ALLOWED_HOSTS'],
    [{ VETTED_METRICS_TOKEN: 'short' }, 'VETTED_METRICS_TOKEN'],
    [{ VETTED_LOCAL_STAGES: 'validate,execute' }, 'VETTED_LOCAL_STAGES names execute, which never runs locally'],
    [{ VETTED_LOCAL_STAGES: 'asemble' }, 'VETTED_LOCAL_STAGES names "asemble"'],
  ])('refuses %j naming the variable', (env, name) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`Environment variable ${name}`));
  });

  it('reads which stages may run locally: the table by default, none, or a list in stage order', () => {
    expect(loadConfig({}).localStages).toEqual(['extract', 'assemble', 'build', 'validate']);
    expect(loadConfig({ VETTED_LOCAL_STAGES: 'none' }).localStages).toEqual([]);
    expect(loadConfig({ VETTED_LOCAL_STAGES: 'validate, assemble' }).localStages).toEqual(['assemble', 'validate']);
  });

  it('reads the /mcp origin and host lists, and keeps the metrics token among the secrets', () => {
    const config = loadConfig({ VETTED_MCP_ALLOWED_ORIGINS: 'https://agent.example, http://127.0.0.1:3000/', VETTED_MCP_ALLOWED_HOSTS: 'Vetted.Example,[::1]', VETTED_METRICS_TOKEN: 'a-metrics-token-of-length' });
    expect(config.mcp).toEqual({ allowedOrigins: ['https://agent.example', 'http://127.0.0.1:3000'], allowedHosts: ['vetted.example', '[::1]'] });
    expect(configSecrets(config)).toContain('a-metrics-token-of-length');
    expect(loadConfig({}).mcp).toEqual({ allowedOrigins: [], allowedHosts: undefined });
  });
});
