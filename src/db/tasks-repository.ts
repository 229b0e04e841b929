/**
 * Review tasks and task types in PostgreSQL. Every query takes the tenant. A review is one compare-and-set
 * (`status = 'pending'`), so of two reviewers exactly one records a decision and nothing is overwritten. The
 * rules (validation, routing, who the operator is) are in src/tasks.
 */
import { and, asc, desc, eq, gt, lt, or, sql, type SQL } from 'drizzle-orm';
import type { TaskReviewRecord } from '../generated/contracts.ts';
import type { Db } from './client.ts';
import { decodeCursor, encodeCursor, type Page } from './run-queries.ts';
import { tasks, taskTypes } from './schema/index.ts';
import type { NewTaskRow, TaskFilters, TaskRow, TasksRepository, TaskTypeRow } from '../tasks/task-rows.ts';

export type { TaskFilters, TasksRepository } from '../tasks/task-rows.ts';

export function createTasksRepository(db: Db): TasksRepository {
  const filtersOf = (tenantId: string, filters: Omit<TaskFilters, 'limit' | 'cursor'>): (SQL | undefined)[] => [
    eq(tasks.tenantId, tenantId),
    filters.status ? eq(tasks.status, filters.status) : undefined,
    filters.taskType ? eq(tasks.taskType, filters.taskType) : undefined,
  ];

  return {
    /** Registers a task type, or replaces its schema and routing (tasks keep the schemaHash they were checked against). */
    async upsertType(row: Omit<TaskTypeRow, 'createdAt' | 'updatedAt'>): Promise<TaskTypeRow> {
      const [saved] = await db
        .insert(taskTypes)
        .values(row)
        .onConflictDoUpdate({
          target: [taskTypes.tenantId, taskTypes.name],
          set: { description: row.description, schema: row.schema, schemaHash: row.schemaHash, autoApprove: row.autoApprove, updatedAt: sql`now()` },
        })
        .returning();
      if (!saved) throw new Error('task type upsert returned nothing');
      return saved;
    },

    async getType(tenantId: string, name: string): Promise<TaskTypeRow | undefined> {
      const [row] = await db.select().from(taskTypes).where(and(eq(taskTypes.tenantId, tenantId), eq(taskTypes.name, name)));
      return row;
    },

    async listTypes(tenantId?: string): Promise<TaskTypeRow[]> {
      return db.select().from(taskTypes).where(tenantId === undefined ? undefined : eq(taskTypes.tenantId, tenantId)).orderBy(asc(taskTypes.tenantId), asc(taskTypes.name));
    },

    /** Stores a task; a repeated (tenant, requestKey) returns the task stored first, with created false. */
    async insert(row: NewTaskRow): Promise<{ task: TaskRow; created: boolean }> {
      const [inserted] = await db.insert(tasks).values(row).onConflictDoNothing().returning();
      if (inserted) return { task: inserted, created: true };
      const [existing] = row.requestKey
        ? await db.select().from(tasks).where(and(eq(tasks.tenantId, row.tenantId), eq(tasks.requestKey, row.requestKey)))
        : [];
      if (!existing) throw new Error(`task ${row.id} was neither inserted nor found`);
      return { task: existing, created: false };
    },

    async get(tenantId: string, id: string): Promise<TaskRow | undefined> {
      const [row] = await db.select().from(tasks).where(and(eq(tasks.tenantId, tenantId), eq(tasks.id, id)));
      return row;
    },

    /** Pending tasks oldest first (a queue); reviewed ones, and all of them together, newest first. */
    async list(tenantId: string, filters: TaskFilters): Promise<Page<TaskRow>> {
      const oldestFirst = filters.status === 'pending';
      const conditions = filtersOf(tenantId, filters);
      if (filters.cursor) {
        const { at, id } = decodeCursor(filters.cursor);
        const after = oldestFirst ? gt : lt;
        conditions.push(or(after(tasks.submittedAt, at), and(eq(tasks.submittedAt, at), after(tasks.id, id))));
      }
      const order = oldestFirst ? [asc(tasks.submittedAt), asc(tasks.id)] : [desc(tasks.submittedAt), desc(tasks.id)];
      const rows = await db.select().from(tasks).where(and(...conditions)).orderBy(...order).limit(filters.limit + 1);
      const items = rows.slice(0, filters.limit);
      const last = items.at(-1);
      return { items, nextCursor: rows.length > filters.limit && last ? encodeCursor({ at: last.submittedAt, id: last.id }) : null };
    },

    async count(tenantId: string, filters: Omit<TaskFilters, 'limit' | 'cursor'>): Promise<number> {
      const [row] = await db.select({ n: sql<string>`count(*)::text` }).from(tasks).where(and(...filtersOf(tenantId, filters)));
      return Number(row?.n ?? 0);
    },

    /** Records the review of a pending task; undefined when the task is not pending (or not the tenant's). */
    async review(tenantId: string, id: string, review: TaskReviewRecord): Promise<TaskRow | undefined> {
      const [row] = await db
        .update(tasks)
        .set({ status: review.decision, review, reviewedAt: new Date(review.reviewedAt) })
        .where(and(eq(tasks.tenantId, tenantId), eq(tasks.id, id), eq(tasks.status, 'pending')))
        .returning();
      return row;
    },
  };
}
