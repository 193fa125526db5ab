import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, reloadSessionFromStorage, SESSION_STORAGE_KEY } from '../lib/session-store.ts';
import { queryClient } from './query-client.ts';

afterEach(() => queryClient.clear());

describe('query client', () => {
  it('drops every cached answer when the admin is signed out', () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ details: { token: 'a.b.c' } }));
    reloadSessionFromStorage();
    queryClient.setQueryData(['devices', 'list', { page: 1 }], { allDevices: [] });
    clearSession();
    expect(queryClient.getQueryData(['devices', 'list', { page: 1 }])).toBeUndefined();
  });

  it('drops the cache when another tab signs out', () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ details: { token: 'a.b.c' } }));
    reloadSessionFromStorage();
    queryClient.setQueryData(['roles', 'detail', '1'], { roleName: 'x' });
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ details: null, toggle: true }));
    window.dispatchEvent(new StorageEvent('storage', { key: SESSION_STORAGE_KEY }));
    expect(queryClient.getQueryData(['roles', 'detail', '1'])).toBeUndefined();
  });

  it('does not retry failed queries', () => {
    expect(queryClient.getDefaultOptions().queries?.retry).toBe(false);
  });
});
