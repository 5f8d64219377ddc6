import { QueryClient } from '@tanstack/react-query';
import { onSessionReset } from './session';

export const queryClient = new QueryClient({
  defaultOptions: {
    // the HTTP client already reports errors; a failed call is not retried behind the user's back
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

// cached answers belong to the session that fetched them
onSessionReset(() => queryClient.clear());
