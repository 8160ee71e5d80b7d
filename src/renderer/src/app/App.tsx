import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { Toaster } from 'sonner';
import { toastDefaults } from '@shared/limits';
import { FullPageSpinner } from '../components/ui/spinner';
import { useThemeStore } from '../lib/theme';
import { useAuthStore } from '../stores/auth-store';
import type { AppRouter } from './router';

/** Providers, the auth gate ('Verifying user...' while the identity service answers), the router, toasts. */
export function App({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  const status = useAuthStore((s) => s.status);
  const user = useAuthStore((s) => s.user);
  const theme = useThemeStore((s) => s.choice);

  // Guards depend on who is signed in: re-run them when that changes (sign-in, sign-out, e-mail verified),
  // not on the first render (the router's first load already saw this identity).
  const identity = status === 'ready' ? `${user?.uid ?? ''}:${user?.emailVerified ?? ''}` : null;
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (identity === null) return;
    if (seen.current !== null && seen.current !== identity) void router.invalidate();
    seen.current = identity;
  }, [router, identity]);

  return (
    <QueryClientProvider client={queryClient}>
      {status === 'loading' ? <FullPageSpinner text="Verifying user..." /> : <RouterProvider router={router} />}
      <Toaster
        position={toastDefaults.position}
        visibleToasts={toastDefaults.visibleToasts}
        duration={toastDefaults.duration}
        theme={theme}
        richColors
        closeButton
      />
    </QueryClientProvider>
  );
}
