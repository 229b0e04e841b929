export * from './runs.ts';
export * from './models.ts';
export * from './executions.ts';
export * from './decisions.ts';
export * from './auth.ts';
export * from './shadow.ts';
export * from './tasks.ts';
export * from './notifications.ts';
