import { Dialog, DialogContent } from '../components/ui/dialog';
import { shortcuts } from '../lib/shortcuts';

/** The `?` sheet: every shortcut, and where the same thing is done without it. */
export function ShortcutsSheet({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const groups = [...new Set(shortcuts.map((s) => s.group))];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && (
        <DialogContent title="Keyboard shortcuts" description="They never fire while you type in a field. Esc closes a panel, then the conversation." className="max-w-xl">
          {groups.map((g) => (
            <section key={g} className="mb-4 last:mb-0">
              <h3 className="mb-1.5 text-[12px] font-semibold tracking-wide text-fg-subtle uppercase">{g}</h3>
              <dl className="divide-y divide-border">
                {shortcuts
                  .filter((s) => s.group === g)
                  .map((s) => (
                    <div key={s.id} className="flex items-start gap-3 py-2">
                      <dt className="flex w-24 shrink-0 gap-1">
                        {s.keys.map((k) => (
                          <kbd key={k} className="min-w-6 rounded border border-border bg-bg px-1.5 py-0.5 text-center font-mono text-[12px] text-fg shadow-xs">
                            {k}
                          </kbd>
                        ))}
                      </dt>
                      <dd className="min-w-0 flex-1 text-[13px] text-fg">
                        {s.label}
                        <span className="block text-[12px] text-fg-muted">Without it: {s.without}</span>
                      </dd>
                    </div>
                  ))}
              </dl>
            </section>
          ))}
        </DialogContent>
      )}
    </Dialog>
  );
}
