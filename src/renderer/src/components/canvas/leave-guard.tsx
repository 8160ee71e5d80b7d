/**
 * Leaving a canvas editor inside the app (a link, Back) first saves what is unsaved; when that save is refused
 * the user is asked before the change is lost. Closing the window is guarded by autosave's beforeunload.
 */
import { useBlocker } from '@tanstack/react-router';
import type { RefObject } from 'react';
import { Button } from '../ui/button';
import { Dialog, DialogContent } from '../ui/dialog';
import type { CanvasController } from './canvas-frame';

export function CanvasLeaveGuard({ controllerRef }: { controllerRef: RefObject<CanvasController | null> }) {
  const blocker = useBlocker({
    shouldBlockFn: async () => {
      const canvas = controllerRef.current;
      if (!canvas?.pending()) return false;
      try {
        await canvas.flush();
        return false;
      } catch {
        return true;
      }
    },
    // Autosave asks on window close itself (it also starts the save there).
    enableBeforeUnload: false,
    withResolver: true,
  });
  if (blocker.status !== 'blocked') return null;
  return (
    <Dialog open onOpenChange={(open) => !open && blocker.reset()}>
      <DialogContent
        title="Leave without saving?"
        description="The last changes on the canvas could not be saved (the toolbar says why). Stay to fix them, or leave and lose them."
        footer={
          <>
            <Button variant="secondary" onClick={() => blocker.proceed()}>
              Leave without saving
            </Button>
            <Button onClick={() => blocker.reset()}>Stay</Button>
          </>
        }
      />
    </Dialog>
  );
}
