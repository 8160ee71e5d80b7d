import { Keyboard, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { AppShell } from '../components/layout/app-shell';
import { Tooltip } from '../components/ui/tooltip';
import { useUnreadBeacon } from '../features/live-chat';
import { useWorkspaceId } from '../lib/queries/session';
import { isMac, shortcutOf } from '../lib/shortcuts';
import { QuickSwitcher } from './quick-switcher';
import { ShortcutsSheet } from './shortcuts-sheet';
import { useUnreadTitle } from './unread-title';

const toolClass =
  'flex h-8 w-full items-center justify-center gap-2.5 rounded-md text-[13px] font-medium text-fg-muted transition-colors hover:bg-muted hover:text-fg xl:justify-start xl:px-2.5';

/**
 * The signed-in frame with what every screen shares: the unread sign (navigation badge and title count), the
 * quick switcher (Ctrl/Cmd+K, or the "Go to…" button) and the shortcut sheet (`?`, or its button).
 */
export function SignedInShell() {
  const workspaceId = useWorkspaceId();
  const unread = useUnreadBeacon(workspaceId);
  const [switcher, setSwitcher] = useState(false);
  const [sheet, setSheet] = useState(false);

  useEffect(() => {
    useUnreadTitle.getState().set(unread);
  }, [unread]);
  useEffect(() => () => useUnreadTitle.getState().set(0), []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const id = shortcutOf(e);
      if (id === 'switcher') {
        e.preventDefault();
        setSheet(false);
        setSwitcher((open) => !open);
      } else if (id === 'sheet') {
        e.preventDefault();
        setSheet(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const tools = (
    <>
      <Tooltip content={`Go to… (${isMac ? '⌘' : 'Ctrl'}+K)`} className="xl:hidden">
        <button type="button" className={toolClass} onClick={() => setSwitcher(true)}>
          <Search className="size-4 shrink-0" aria-hidden />
          <span className="sr-only xl:not-sr-only xl:flex-1 xl:text-left">Go to…</span>
          <kbd className="hidden rounded border border-border px-1 font-mono text-[11px] text-fg-subtle xl:inline" aria-hidden>
            {isMac ? '⌘K' : 'Ctrl K'}
          </kbd>
        </button>
      </Tooltip>
      <Tooltip content="Keyboard shortcuts (?)" className="xl:hidden">
        <button type="button" className={toolClass} onClick={() => setSheet(true)}>
          <Keyboard className="size-4 shrink-0" aria-hidden />
          <span className="sr-only xl:not-sr-only">Keyboard shortcuts</span>
        </button>
      </Tooltip>
    </>
  );

  return (
    <>
      <AppShell navBadges={{ '/live-chat': unread }} tools={tools} />
      <QuickSwitcher workspaceId={workspaceId} open={switcher} onOpenChange={setSwitcher} />
      <ShortcutsSheet open={sheet} onOpenChange={setSheet} />
    </>
  );
}
