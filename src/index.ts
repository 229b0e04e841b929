/**
 * The package's library entry (`import { createSystem } from 'vetted'`): embed Vetted in a process of your own,
 * with the same pieces the CLI assembles. The contracts' types come along; the HTTP client is clients/typescript.
 */
export type * from './generated/contracts.ts';
export { ERROR_CATALOGUE, isVettedError, VettedError, type ErrorCode } from './errors.ts';
export { loadConfig, type Config } from './config.ts';
export { createSystem, type System, type SystemOptions } from './system.ts';
export { dryRun, type DryRunInput, type DryRunResult } from './preview/dry-run.ts';
export { startApiServer, type RunningApi } from '../api/server.ts';
export { startWorkers, WORK_KINDS, type RunningWorkers, type WorkKind } from '../workers/start-workers.ts';
