/** Which failures are a dependency away (a 503 naming it) and which stay server bugs (a 500). */
import { describe, expect, it } from 'vitest';
import { dependencyOfError, endpointsOf, routeDependencies } from '../../api/plugins/dependencies.ts';

const endpoints = endpointsOf({ databaseUrl: 'postgres://root@db.internal:6432/vetted', redisUrl: 'redis://cache:6380' });

function socketError(code: string, port: number): Error {
  return Object.assign(new Error(`connect ${code} 10.0.0.5:${port}`), { code, port, address: '10.0.0.5', syscall: 'connect' });
}

function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'FATAL' });
}

describe('dependencyOfError', () => {
  it.each([
    ['admin shutdown (a restart)', pgError('57P01', 'terminating connection due to administrator command'), 'postgres'],
    ['starting up', pgError('57P03', 'the database system is starting up'), 'postgres'],
    ['connection exception class 08', pgError('08006', 'connection failure'), 'postgres'],
    ['too many connections', pgError('53300', 'sorry, too many clients already'), 'postgres'],
    ['a lost connection', new Error('Connection terminated unexpectedly'), 'postgres'],
    ['a pool that cannot connect in time', new Error('timeout exceeded when trying to connect'), 'postgres'],
    ['a refused socket on the database port', socketError('ECONNREFUSED', 6432), 'postgres'],
    ['a refused socket on the Redis port', socketError('ECONNREFUSED', 6380), 'redis'],
    ['a closed Redis connection', new Error('Connection is closed.'), 'redis'],
    ['ioredis giving up on a command', Object.assign(new Error('Reached the max retries per request limit (which is 20).'), { name: 'MaxRetriesPerRequestError' }), 'redis'],
    ['pg wrapped by drizzle', new Error('Failed query: select 1', { cause: pgError('57P01', 'terminating connection due to administrator command') }), 'postgres'],
  ])('%s → %s', (_label, error, dependency) => {
    expect(dependencyOfError(error, endpoints)).toBe(dependency);
  });

  it.each([
    ['a SQL bug', pgError('42703', 'column "nope" does not exist')],
    ['a value PostgreSQL refuses', pgError('22008', 'date/time field value out of range')],
    ['a provider that refused a connection (another port)', new TypeError('fetch failed', { cause: socketError('ECONNREFUSED', 443) })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error at all', 'boom'],
  ])('%s stays a server error', (_label, error) => {
    expect(dependencyOfError(error, endpoints)).toBeUndefined();
  });
});

describe('routeDependencies', () => {
  it('adds PostgreSQL to every route behind an API key, and keeps what the route declares', () => {
    expect(routeDependencies(undefined)).toEqual([]);
    expect(routeDependencies({ permission: 'runs:read' })).toEqual(['postgres']);
    expect(routeDependencies({ permission: 'runs:create', dependencies: ['redis'] })).toEqual(['postgres', 'redis']);
    expect(routeDependencies({ dependencies: ['redis', 'postgres'] })).toEqual(['postgres', 'redis']);
  });
});
