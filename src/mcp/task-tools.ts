/**
 * The review-task tools: an assistant escalates what it is unsure of (submit_task), an operator
 * lists, reads and records a review. Each calls src/tasks, as POST /api/tasks and its siblings do.
 */
import type { GetTaskArgs, ListTasksArgs, RecordTaskReviewArgs, TaskSubmission } from '../generated/contracts.ts';
import { getTask, listTasks, recordTaskReview, submitTask, taskView } from '../tasks/tasks.ts';
import { DEFAULT_PAGE, defineTool, toolContract, type ToolDefinition } from './tool.ts';

const read = { readOnlyHint: true, openWorldHint: false } as const;
const write = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

export const TASK_TOOLS: readonly ToolDefinition[] = [
  defineTool<TaskSubmission>({
    name: 'submit_task',
    title: 'Escalate a task for human review',
    description:
      'Submit a task of a type the tenant registered: its payload (checked against the type\'s JSON Schema), your confidence (high|medium|low), ' +
      'the impact (normal|high), whyEscalated, missingInformation and who you are (submitter {name, role}). High confidence with normal impact ' +
      'comes back approved at once (routing auto_approved); anything else waits for a person (status pending): check it later with get_task.',
    permission: 'tasks:create',
    args: { contract: 'review-task', fragment: '#/definitions/TaskSubmission' },
    result: 'TaskResult',
    idArgument: 'taskType',
    annotations: write,
    async run({ system, caller, view }, args) {
      const { task } = await submitTask(system, caller, args);
      return view({ status: 'ok', task: taskView(task) });
    },
  }),
  defineTool<ListTasksArgs>({
    name: 'list_tasks',
    title: 'List review tasks',
    description: 'Tasks by status (pending: the queue, oldest first; approved or rejected: newest first) and type. count is this page, total all the filters find. An empty list is status ok with count 0.',
    permission: 'tasks:read',
    args: toolContract('ListTasksArgs'),
    result: 'ListTasksResult',
    annotations: read,
    async run({ system, caller, view }, args) {
      const page = await listTasks(system, caller.tenantId, { status: args.status, taskType: args.taskType, cursor: args.cursor, limit: args.limit ?? DEFAULT_PAGE });
      const tasks = page.items.map(taskView);
      return view({ status: 'ok', count: tasks.length, total: page.total, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), tasks });
    },
  }),
  defineTool<GetTaskArgs>({
    name: 'get_task',
    title: 'Read one review task',
    description: 'One task with its payload, routing, and once reviewed its decision, notes, operator and time.',
    permission: 'tasks:read',
    args: toolContract('GetTaskArgs'),
    result: 'TaskResult',
    idArgument: 'taskId',
    annotations: read,
    async run({ system, caller, view }, args) {
      return view({ status: 'ok', task: taskView(await getTask(system, caller.tenantId, args.taskId)) });
    },
  }),
  defineTool<RecordTaskReviewArgs>({
    name: 'record_task_review',
    title: 'Review a pending task',
    description:
      "Record approved or rejected with short notes. With a person's key the operator is that person; a service's key names operator {name, role, id?, team?}. " +
      'A task reviewed already is a conflict: a decision is never overwritten.',
    permission: 'tasks:review',
    args: toolContract('RecordTaskReviewArgs'),
    result: 'TaskResult',
    idArgument: 'taskId',
    annotations: write,
    async run({ system, caller, view }, args) {
      const { taskId, ...review } = args;
      return view({ status: 'ok', task: taskView(await recordTaskReview(system, caller, taskId, review)) });
    },
  }),
];
