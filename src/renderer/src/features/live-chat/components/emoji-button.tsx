/**
 * The composer's emoji picker: emoji-picker-react (maintained; search, categories, keyboard navigation, labelled
 * buttons), native emoji with its bundled data, so nothing is fetched; loaded only when first opened.
 */
import { Smile } from 'lucide-react';
import { Popover } from 'radix-ui';
import { Suspense, lazy, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';

const Picker = lazy(() => import('emoji-picker-react'));

export function EmojiButton({ onPick, disabled }: { onPick: (emoji: string) => void; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  // The app's own theme (a class on <html>), which may differ from the system's.
  const dark = open && document.documentElement.classList.contains('dark');
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild disabled={disabled}>
        <Button type="button" variant="ghost" size="icon" aria-label="Insert emoji" title="Insert emoji">
          <Smile aria-hidden />
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content side="top" align="start" sideOffset={8} className="z-50" aria-label="Emoji picker">
          <Suspense fallback={<div className="flex h-96 w-80 items-center justify-center rounded-lg bg-surface shadow-lg"><Spinner label="Loading emoji" /></div>}>
            <Picker
              emojiStyle="native"
              theme={dark ? 'dark' : 'light'}
              lazyLoadEmojis
              previewConfig={{ showPreview: false }}
              searchPlaceHolder="Search emoji"
              width={320}
              height={380}
              onEmojiClick={(e) => {
                onPick(e.emoji);
                setOpen(false);
              }}
            />
          </Suspense>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
