/**
 * Review tasks under the faults: an agent submits tasks (POST /api/tasks, each with its own requestKey, sent
 * again after a 5xx or no answer), and people review the pending ones, some over HTTP, some with the MCP tool
 * `record_task_review`, and some from both at once (one must win, the other get 409 TASK_ALREADY_REVIEWED).
 * A task is judged as a decision on `task:<id>` by the decisions check.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { callApi, isRetryable } from './api-client.ts';
import { errorMessage, sleep } from './log.ts';
import type { McpClient } from './mcp-client.ts';
import type { DecisionAttempt } from './verdicts.ts';

const MAX_TRIES = 20;
const OPERATOR = { name: 'Chaos Operator', role: 'reviewer' };

export interface TaskerOptions {
  apiUrl: string;
  repoRoot: string;
  submitterKey: string;
  reviewerKey: string;
  adminKey: string;
  mcp: McpClient;
  random: () => number;
  salt: string;
}

export class Tasker {
  /** Tasks the API acknowledged (a 2xx naming the id), by requestKey. */
  readonly acknowledged = new Map<string, string>();
  readonly attempts: DecisionAttempt[] = [];
  readonly outcomes = new Map<string, number>();
  private readonly reviewed = new Set<string>();
  private readonly examples: Record<string, unknown>[];
  private sent = 0;

  constructor(private readonly options: TaskerOptions) {
    const dir = path.join(options.repoRoot, 'examples', 'tasks');
    this.examples = ['lgv-drive-fault.json', 'lgv-battery-routine.json'].map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>);
  }

  /** The task type the examples use, registered by the tenant's admin. */
  async registerType(): Promise<void> {
    const file = path.join(this.options.repoRoot, 'examples', 'task-types', 'lgv-troubleshooting.task-type.json');
    const saved = await callApi(this.options.apiUrl, this.options.adminKey, 'POST', '/api/task-types', JSON.parse(readFileSync(file, 'utf8')));
    if (!saved.ok && saved.status !== 409) throw new Error(`could not register the task type: ${saved.status} ${saved.code} ${saved.detail}`);
  }

  /** One task, sent until acknowledged (bounded); low confidence, so it waits for a person. */
  async submit(): Promise<void> {
    const requestKey = `tk${this.options.salt}${(this.sent++).toString(36).padStart(4, '0')}`;
    const example = this.examples[this.sent % this.examples.length] as Record<string, unknown>;
    const body = { ...example, confidence: 'low', requestKey };
    for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
      const result = await callApi<{ id: string }>(this.options.apiUrl, this.options.submitterKey, 'POST', '/api/tasks', body);
      if (result.ok) return void this.acknowledged.set(requestKey, result.body.id);
      if (!isRetryable(result)) return this.count(`submit → ${result.status} ${result.code}`);
      await sleep(500 * Math.min(attempt, 6));
    }
    this.count('submit → never acknowledged');
  }

  /** Reviews every acknowledged task not yet reviewed: HTTP, MCP, or both racing. */
  async reviewPending(): Promise<void> {
    for (const taskId of this.acknowledged.values()) {
      if (this.reviewed.has(taskId)) continue;
      this.reviewed.add(taskId);
      const decision = this.options.random() < 0.8 ? 'approved' : 'rejected';
      const roll = this.options.random();
      const calls = [
        ...(roll < 0.7 ? [this.overHttp(taskId, decision)] : []),
        ...(roll >= 0.5 ? [this.overMcp(taskId, decision)] : []),
      ];
      await Promise.all(calls).catch((error: unknown) => this.count(`harness ${errorMessage(error)}`));
    }
  }

  private async overHttp(taskId: string, decision: string): Promise<void> {
    let status = 0;
    for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
      const result = await callApi(this.options.apiUrl, this.options.reviewerKey, 'POST', `/api/tasks/${taskId}/review`, { decision, notes: 'chaos review', operator: OPERATOR });
      status = result.status;
      if (result.ok || !isRetryable(result)) break;
      await sleep(500 * Math.min(attempt, 6));
    }
    this.attempts.push({ reviewId: `task:${taskId}`, channel: 'http task review', status: status || undefined });
    this.count(`http review → ${status || 'no answer'}`);
  }

  private async overMcp(taskId: string, decision: string): Promise<void> {
    const answer = await this.options.mcp.call('record_task_review', { taskId, decision, notes: 'chaos review over MCP', operator: OPERATOR });
    this.attempts.push({ reviewId: `task:${taskId}`, channel: 'mcp task review', status: answer.status || undefined });
    this.count(`mcp review → ${answer.status || 'no answer'}`);
  }

  private count(key: string): void {
    this.outcomes.set(key, (this.outcomes.get(key) ?? 0) + 1);
  }
}
