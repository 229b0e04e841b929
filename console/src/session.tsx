/**
 * Who is signed in. Signing in checks the key against GET /api/me and keeps it in memory (api/client.ts);
 * signing out forgets it. Nothing is written to storage: a reload asks for the key again.
 */
import { createContext, useContext } from 'react';
import { api, setApiKey } from './api/client.ts';
import type { Me } from './api/types.ts';

export const SessionContext = createContext<Me | null>(null);

export function useMe(): Me {
  const me = useContext(SessionContext);
  if (!me) throw new Error('useMe outside a signed-in console');
  return me;
}

export function can(me: Me, permission: string): boolean {
  return me.permissions.includes(permission);
}

/** @throws ApiProblem when the key is refused (401) or the API cannot be reached. */
export async function signIn(key: string): Promise<Me> {
  setApiKey(key.trim());
  try {
    return await api<Me>('GET', '/api/me');
  } catch (error) {
    setApiKey(null);
    throw error;
  }
}

export function signOut(): void {
  setApiKey(null);
}
