/** config.ts is the only reader of the environment; commands with their own defaults go through commandEnv. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandEnv, loadConfig } from '../../src/config.ts';

const saved = { LOG_LEVEL: process.env.LOG_LEVEL, VETTED_POLICY: process.env.VETTED_POLICY };

afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('commandEnv', () => {
  it('puts a command default under the environment: LOG_LEVEL, when set, wins', () => {
    delete process.env.LOG_LEVEL;
    expect(loadConfig(commandEnv({ LOG_LEVEL: 'warn' })).logLevel).toBe('warn');
    process.env.LOG_LEVEL = '';
    expect(loadConfig(commandEnv({ LOG_LEVEL: 'warn' })).logLevel).toBe('warn');
    process.env.LOG_LEVEL = 'debug';
    expect(loadConfig(commandEnv({ LOG_LEVEL: 'warn' })).logLevel).toBe('debug');
  });

  it('puts fixed values over the environment, still checked by loadConfig', () => {
    process.env.VETTED_POLICY = 'auto';
    expect(loadConfig(commandEnv({}, { VETTED_POLICY: 'require_human' })).defaults.policy.mode).toBe('require_human');
    process.env.LOG_LEVEL = 'info';
    expect(() => loadConfig(commandEnv({ LOG_LEVEL: 'loud' }))).not.toThrow();
    delete process.env.LOG_LEVEL;
    expect(() => loadConfig(commandEnv({ LOG_LEVEL: 'loud' }))).toThrow(/LOG_LEVEL/);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

describe('the environment has one reader', () => {
  it('no code outside src/config.ts touches process.env', () => {
    const readers = ['src', 'api', 'workers'].flatMap(sourceFiles).filter((file) => {
      if (path.normalize(file) === path.normalize('src/config.ts')) return false;
      const code = readFileSync(file, 'utf8').split('\n').filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line));
      return code.some((line) => line.includes('process.env'));
    });
    expect(readers).toEqual([]);
  });
});
