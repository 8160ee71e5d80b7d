/** Sends what the composer holds: a file with its caption, a note (with its mentions) or a text reply. */
import type { UseFormReturn } from 'react-hook-form';
import { mentionedMembers } from '@shared/canned-replies';
import { useCreateMessage } from '../api/create-message';
import { useCreateNote } from '../api/create-note';
import { useSendMediaMessage } from '../api/send-media-message';
import type { TextForm } from '../components/composer-types';

interface SendOptions {
  conversationId: string;
  note: boolean;
  members: { id: string; name: string }[];
  form: UseFormReturn<TextForm>;
  offline: string | null;
  file: File | null;
  /** Why the file cannot be sent (type or size), if it cannot. */
  problem: string | null;
  /** Canned-reply variables still in the text: it is not sent while any is left. */
  unfilled: string[];
  /** After a successful send: clear the composer. */
  onDone: () => void;
}

export function useComposerSend({ conversationId, note, members, form, offline, file, problem, unfilled, onDone }: SendOptions) {
  const send = useCreateMessage(conversationId);
  const sendNote = useCreateNote(conversationId);
  const sendMedia = useSendMediaMessage(conversationId);
  const pending = send.isPending || sendNote.isPending || sendMedia.isPending;

  const submit = async () => {
    if (offline || pending) return;
    const value = form.getValues('text');
    if (unfilled.length > 0) {
      form.setError('text', { message: `Replace ${unfilled.map((v) => `{{${v}}}`).join(', ')} before sending: this contact has no value for it` });
      return;
    }
    try {
      if (file) {
        if (problem) return;
        await sendMedia.mutateAsync({ file, caption: value });
        return onDone();
      }
      const ok = await form.trigger('text');
      if (!ok) return;
      if (note) {
        await sendNote.mutateAsync({ text: value.trim(), mentionedMemberIds: mentionedMembers(value, members).map((m) => m.id) });
      } else {
        await send.mutateAsync(value);
      }
      onDone();
    } catch {
      // The mutation cache toasts the failure (`status: message`); the text and file stay for another try.
    }
  };

  return { pending, submit };
}
