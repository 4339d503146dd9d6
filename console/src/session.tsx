import { QueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { SupportDeskClient } from '../../client/supportdesk-client';
import { ApiError, createClient } from './api';

const KEY_ITEM = 'supportdesk.apiKey';

interface Session {
  apiKey: string | null;
  client: SupportDeskClient;
  signIn(key: string): void;
  signOut(): void;
}

const SessionContext = createContext<Session | null>(null);

/*
 * The API key lives in session storage: it survives a reload and a new tab of the same session, and is gone when
 * the browser session ends. Changing it drops every cached answer, since what a key may see differs.
 */
export function SessionProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  const [apiKey, setApiKey] = useState<string | null>(() => window.sessionStorage.getItem(KEY_ITEM));
  const change = useCallback(
    (key: string | null) => {
      if (key === null) window.sessionStorage.removeItem(KEY_ITEM);
      else window.sessionStorage.setItem(KEY_ITEM, key);
      queryClient.clear();
      setApiKey(key);
    },
    [queryClient],
  );
  const session = useMemo<Session>(
    () => ({ apiKey, client: createClient(apiKey), signIn: (key) => change(key.trim()), signOut: () => change(null) }),
    [apiKey, change],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession outside SessionProvider');
  return session;
}

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        // A client mistake or a refusal will not change by asking again; a dropped connection or a 5xx may.
        retry: (failures, error) => failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
    },
  });
}
