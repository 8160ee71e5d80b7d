import { useEffect, useMemo } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { draftSaver, loadDraft } from '../../../lib/drafts';
import type { TextForm } from '../components/composer-types';

/**
 * A reply's draft comes back (unless the agent has started typing); every change is kept. Notes keep none.
 * Returns the saver, so a sent message can clear its draft at once.
 */
export function useComposerDraft(conversationId: string, note: boolean, form: UseFormReturn<TextForm>) {
  const draft = useMemo(() => (note ? null : draftSaver(conversationId)), [conversationId, note]);
  useEffect(() => {
    if (!draft) return;
    let live = true;
    void loadDraft(conversationId)
      .then((t) => {
        if (live && t && !form.getValues('text')) form.setValue('text', t);
      })
      .catch(() => undefined);
    const sub = form.watch(({ text: t }) => draft.save(t ?? ''));
    return () => {
      live = false;
      sub.unsubscribe();
      draft.flush();
    };
  }, [conversationId, draft, form]);
  return draft;
}
