import { type ErrorComponentProps, Link } from '@tanstack/react-router';
import { type ReactNode, createContext, useContext, useState } from 'react';
import { ApiError } from '../lib/api-client';
import { Button } from './ui/button';
import { Spinner } from './ui/spinner';

/** True inside the signed-in frame, whose <main> already holds the screen. */
export const InsideMain = createContext(false);

/** A screen rendered outside the app frame (unknown path, root errors) still gets its main landmark. */
function Landmark({ children }: { children: ReactNode }) {
  return useContext(InsideMain) ? children : <main className="h-full">{children}</main>;
}

/**
 * A record the address names that does not exist (404), or an address that cannot name one (400 from a path
 * parameter, e.g. /campaigns/not-an-id): the user followed a bad link, which is "Not Found", not a failure.
 */
export function isMissingRecord(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/** Spec section 2: the default screen of a route load error, with a Show Error / Hide Error toggle. */
export function ErrorScreen({ error, reset }: Partial<ErrorComponentProps> & { error: unknown }) {
  const [show, setShow] = useState(false);
  if (isMissingRecord(error)) return <NotFoundScreen />;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Landmark>
    <div className="flex h-full min-h-[50vh] flex-col items-center justify-center gap-3 p-8 text-center">
      <h1 className="text-lg font-semibold text-fg">Something went wrong!</h1>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" onClick={() => setShow((v) => !v)} aria-expanded={show}>
          {show ? 'Hide Error' : 'Show Error'}
        </Button>
        {reset && (
          <Button variant="ghost" size="sm" onClick={() => reset()}>
            Try again
          </Button>
        )}
      </div>
      {show && (
        <pre className="max-w-xl overflow-auto rounded-md border border-danger/30 bg-danger-soft p-3 text-left text-xs whitespace-pre-wrap text-danger">
          {message}
        </pre>
      )}
    </div>
    </Landmark>
  );
}

/** Spec section 2: unknown routes (and records). */
export function NotFoundScreen() {
  return (
    <Landmark>
    <div className="flex h-full min-h-[50vh] flex-col items-center justify-center gap-3 p-8 text-center">
      <p className="text-5xl font-semibold tracking-tight text-fg-subtle" aria-hidden>404</p>
      <h1 className="text-lg font-semibold text-fg">Not Found</h1>
      <p className="text-[13px] text-fg-muted">There is nothing at this address.</p>
      <Button variant="secondary" size="sm" asChild>
        <Link to="/">Go home</Link>
      </Button>
    </div>
    </Landmark>
  );
}

/** Shown in place of a screen whose data is still loading (after a short delay, so fast loads do not flash). */
export function RoutePending() {
  return (
    <div className="flex h-full min-h-[40vh] items-center justify-center" role="status" aria-label="Loading">
      <Spinner className="size-5" />
    </div>
  );
}
