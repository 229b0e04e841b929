/**
 * Review tasks over HTTP: an app or agent submits a task of a type the tenant registered; people
 * list, read and review them. Handlers parse, authorize and call src/tasks, as the MCP tools do.
 */
import type { FastifyInstance } from 'fastify';
import type { TaskStatus } from '../../src/generated/contracts.ts';
import type { TaskTypeRow } from '../../src/tasks/task-rows.ts';
import { registerTaskType } from '../../src/tasks/task-types.ts';
import { getTask, listTasks, recordTaskReview, submitTask, taskView } from '../../src/tasks/tasks.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { commonErrors, listTasksQuery, ref, taskIdParams, taskPage, taskTypeList, taskTypeView } from '../schemas.ts';

const conflicts = { 409: ref('problem') };

export function registerTaskRoutes(app: FastifyInstance, system: System): void {
  app.post<{ Body: Record<string, unknown> }>('/api/tasks', {
    config: { permission: 'tasks:create' },
    schema: {
      operationId: 'submitTask',
      tags: ['tasks'],
      summary: 'Submit a task for human review',
      description:
        'The payload is checked against the task type the tenant registered. Routing is a policy on confidence × impact: by default high ' +
        'confidence with normal impact is approved at once (201 with status approved, routing auto_approved); anything else waits for a person (status pending). ' +
        'A repeated requestKey returns the task it first made (200).',
      body: ref('review-task', '#/definitions/TaskSubmission'),
      response: { 200: ref('review-task'), 201: ref('review-task'), ...commonErrors, ...conflicts },
    },
  }, async (request, reply) => {
    const { task, created } = await submitTask(system, principal(request), request.body);
    return reply.code(created ? 201 : 200).header('location', `/api/tasks/${task.id}`).send(taskView(task));
  });

  app.get<{ Querystring: { status?: TaskStatus; taskType?: string; limit: number; cursor?: string } }>('/api/tasks', {
    config: { permission: 'tasks:read' },
    schema: { operationId: 'listTasks', tags: ['tasks'], summary: 'Tasks by status and type: pending ones oldest first, the rest newest first', querystring: listTasksQuery, response: { 200: taskPage, ...commonErrors } },
  }, async (request) => {
    const page = await listTasks(system, principal(request).tenantId, request.query);
    return { items: page.items.map(taskView), nextCursor: page.nextCursor, total: page.total };
  });

  app.get<{ Params: { taskId: string } }>('/api/tasks/:taskId', {
    config: { permission: 'tasks:read' },
    schema: { operationId: 'getTask', tags: ['tasks'], summary: 'One task, pending or reviewed', params: taskIdParams, response: { 200: ref('review-task'), ...commonErrors } },
  }, async (request) => taskView(await getTask(system, principal(request).tenantId, request.params.taskId)));

  app.post<{ Params: { taskId: string }; Body: Record<string, unknown> }>('/api/tasks/:taskId/review', {
    config: { permission: 'tasks:review' },
    schema: {
      operationId: 'reviewTask',
      tags: ['tasks'],
      summary: 'Record the review of a pending task: approved or rejected, with notes',
      description: "The operator is the person behind the key (a person's key), or the {name, role} a service's key names. A task reviewed already is 409 TASK_ALREADY_REVIEWED: nothing is overwritten.",
      params: taskIdParams,
      body: ref('review-task', '#/definitions/TaskReviewInput'),
      response: { 200: ref('review-task'), ...commonErrors, ...conflicts },
    },
  }, async (request) => taskView(await recordTaskReview(system, principal(request), request.params.taskId, request.body)));

  app.get('/api/task-types', {
    config: { permission: 'tasks:read' },
    schema: { operationId: 'listTaskTypes', tags: ['tasks'], summary: "The tenant's task types: each name, schema and the confidence × impact pairs approved without a person", response: { 200: taskTypeList, ...commonErrors } },
  }, async (request) => ({ items: (await system.tasks.listTypes(principal(request).tenantId)).map(taskTypeResource) }));

  app.post<{ Body: Record<string, unknown> }>('/api/task-types', {
    config: { permission: 'settings:manage' },
    schema: {
      operationId: 'registerTaskType',
      tags: ['tasks'],
      summary: 'Register a task type, or replace its schema and routing (admin)',
      body: ref('task-type'),
      response: { 200: taskTypeView, ...commonErrors },
    },
  }, async (request) => taskTypeResource(await registerTaskType(system.tasks, principal(request).tenantId, request.body)));
}

export function taskTypeResource(row: TaskTypeRow) {
  return {
    name: row.name, description: row.description, schema: row.schema, schemaHash: row.schemaHash, autoApprove: row.autoApprove,
    createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(),
  };
}
