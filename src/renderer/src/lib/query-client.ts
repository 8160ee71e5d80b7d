import { MutationCache, QueryClient } from '@tanstack/react-query';
import { toastError } from './api-client';

declare module '@tanstack/react-query' {
  interface Register {
    /** `toast: false`: the screen shows this mutation's failure itself (inline), so no toast. */
    mutationMeta: { toast?: boolean };
  }
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // Spec section 8: every failed mutation is shown as a toast `status: message`.
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (mutation.meta?.toast === false) return;
        toastError(error);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failureCount, error) => {
          // A 4xx will not get better by asking again.
          const status = (error as { status?: number }).status;
          if (status !== undefined && status >= 400 && status < 500) return false;
          return failureCount < 2;
        },
        refetchOnWindowFocus: false,
      },
    },
  });
}

/** The app's one client (tests make their own with createQueryClient). */
export const queryClient = createQueryClient();
