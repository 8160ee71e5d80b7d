// @vitest-environment happy-dom
/**
 * The shared components keep focus on something sensible (dialogs, busy buttons), names truncate
 * without hiding anything, messages' links are safe and long messages collapse, and records that do not exist
 * read "Not Found".
 */
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryHistory, createRootRoute, createRouter } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorScreen, InsideMain } from '../../src/renderer/src/components/error-screens';
import { Button } from '../../src/renderer/src/components/ui/button';
import { FormDialog } from '../../src/renderer/src/components/ui/dialog';
import { TH, TD, Table } from '../../src/renderer/src/components/ui/table';
import { TruncatedText } from '../../src/renderer/src/components/ui/tooltip';
import { MessageText, splitLinks } from '../../src/renderer/src/features/live-chat/components/message-text';
import { ApiError } from '../../src/renderer/src/lib/api-client';
import { plural } from '../../src/renderer/src/lib/format';

afterEach(cleanup);

function Screen({ openerStays }: { openerStays: boolean }) {
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState(false);
  return (
    <main id="main" tabIndex={-1}>
      {(openerStays || !saved) && <Button onClick={() => setOpen(true)}>New attribute</Button>}
      {open && (
        <FormDialog
          title="New attribute"
          submitLabel="Create attribute"
          onClose={() => setOpen(false)}
          onSubmit={(e) => {
            e.preventDefault();
            setSaved(true);
            setOpen(false);
          }}
        >
          <input aria-label="Name" autoFocus />
        </FormDialog>
      )}
    </main>
  );
}

describe('focus after a dialog closes', () => {
  it('returns to the control that opened it (Escape or Cancel)', async () => {
    render(<Screen openerStays />);
    const opener = screen.getByRole('button', { name: 'New attribute' });
    await userEvent.click(opener);
    expect(await screen.findByRole('dialog', { name: 'New attribute' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);

    await userEvent.click(opener);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);
  });

  it('goes to the main region, never the page body, when the opener is gone', async () => {
    render(<Screen openerStays={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'New attribute' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Create attribute' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('button', { name: 'New attribute' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('main'));
    expect(document.activeElement).not.toBe(document.body);
  });
});

describe('a busy button', () => {
  it('keeps focus, says it is busy and ignores clicks', async () => {
    let clicks = 0;
    const { rerender } = render(<Button onClick={() => clicks++}>Close</Button>);
    const button = screen.getByRole('button', { name: 'Close' });
    await act(async () => button.focus());
    rerender(
      <Button onClick={() => clicks++} loading>
        Close
      </Button>,
    );
    expect(button).not.toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(document.activeElement).toBe(button);
    await userEvent.click(button);
    expect(clicks).toBe(0);
  });
});

describe('names that do not fit', () => {
  it('end in an ellipsis, keep the whole text for screen readers and show it as a tooltip', () => {
    const name = 'Maximilian Alexander Wolfeschlegelsteinhausenbergerdorff-Smith';
    render(<TruncatedText as="h1" text={name} />);
    const heading = screen.getByRole('heading', { name });
    expect(heading).toHaveClass('truncate', 'min-w-0');
    expect(heading).toHaveAttribute('title', name);
  });

  it('a table names its action column and pins it to the right edge of a focusable, scrollable region', () => {
    render(
      <Table aria-label="Attributes">
        <thead>
          <tr>
            <TH>Name</TH>
            <TH actions />
          </tr>
        </thead>
        <tbody>
          <tr>
            <TD>plan</TD>
            <TD actions>
              <button type="button">Edit plan</button>
            </TD>
          </tr>
        </tbody>
      </Table>,
    );
    expect(screen.getByRole('columnheader', { name: 'Actions' })).toHaveClass('sticky', 'right-0');
    expect(screen.getByRole('button', { name: 'Edit plan' }).closest('td')).toHaveClass('sticky', 'right-0');
    const region = screen.getByRole('region', { name: 'Attributes' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(region).toHaveClass('overflow-x-auto', 'scroll-cue-x');
  });
});

describe('message text', () => {
  it('turns http(s) links into safe links that open outside the app, leaving trailing punctuation as text', () => {
    render(<MessageText text="Track it at https://northwind.example/track/1042. Or javascript:alert(1) www.nope" />);
    const link = screen.getByRole('link', { name: 'https://northwind.example/track/1042' });
    expect(link).toHaveAttribute('href', 'https://northwind.example/track/1042');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(splitLinks('see (https://a.example/x)!')).toEqual([{ text: 'see (' }, { href: 'https://a.example/x', text: 'https://a.example/x' }, { text: ')!' }]);
  });

  it('collapses a very long message behind "Read more" and expands it', async () => {
    render(<MessageText text={'line\n'.repeat(40)} />);
    const more = screen.getByRole('button', { name: 'Read more' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(document.getElementById(more.getAttribute('aria-controls')!)).toHaveClass('line-clamp-[12]');
    await userEvent.click(more);
    expect(screen.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById(more.getAttribute('aria-controls')!)).not.toHaveClass('line-clamp-[12]');
  });

  it('leaves a short message alone', () => {
    render(<MessageText text="Thanks!" />);
    expect(screen.queryByRole('button')).toBeNull();
  });
});

/** Renders inside a router (the Not Found screen links home). */
function renderRouted(ui: ReactNode) {
  const root = createRootRoute({ component: () => ui });
  render(<RouterProvider router={createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ['/'] }) })} />);
}

describe('records that do not exist', () => {
  it('an unknown id (404) or an id that cannot exist (400) reads Not Found, in a main landmark outside the app frame', async () => {
    renderRouted(<ErrorScreen error={new ApiError(404, 'Campaign not found', null)} />);
    expect(await screen.findByRole('heading', { name: 'Not Found' })).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong!')).toBeNull();
    expect(screen.getByRole('main')).toBeInTheDocument();
    cleanup();
    renderRouted(
      <main>
        <InsideMain.Provider value>
          <ErrorScreen error={new ApiError(400, 'Bad Request Exception', null)} />
        </InsideMain.Provider>
      </main>,
    );
    expect(await screen.findByRole('heading', { name: 'Not Found' })).toBeInTheDocument();
    expect(screen.getAllByRole('main')).toHaveLength(1);
  });

  it('any other failure is still the spec’s "Something went wrong!"', async () => {
    renderRouted(<ErrorScreen error={new ApiError(500, 'boom', null)} />);
    expect(await screen.findByRole('heading', { name: 'Something went wrong!' })).toBeInTheDocument();
  });
});

describe('plurals', () => {
  it('say "1 step", "2 steps", "1,204 contacts"', () => {
    expect(plural(1, 'step')).toBe('1 step');
    expect(plural(2, 'step')).toBe('2 steps');
    expect(plural(0, 'step')).toBe('0 steps');
    expect(plural(1204, 'contact')).toBe('1,204 contacts');
  });
});

describe('page titles', () => {
  it('name the screen ("Live chat · Parley") on every route, and Not Found on unknown ones', async () => {
    const { createAppRouter } = await import('../../src/renderer/src/app/router');
    const { titleOf } = await import('../../src/renderer/src/app/document-title');
    const { createQueryClient } = await import('../../src/renderer/src/lib/query-client');
    const router = createAppRouter({ queryClient: createQueryClient(), history: createMemoryHistory({ initialEntries: ['/'] }) });
    const paths = Object.keys(router.routesByPath);
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) expect(titleOf(path, 'ok'), path).toMatch(/^.+ · Parley$/);
    expect(titleOf('/live-chat', 'ok')).toBe('Live chat · Parley');
    expect(titleOf('/settings/members', 'ok')).toBe('Members · Settings · Parley');
    expect(titleOf('/campaigns/$campaignId', 'notFound')).toBe('Not Found · Parley');
  });
});
