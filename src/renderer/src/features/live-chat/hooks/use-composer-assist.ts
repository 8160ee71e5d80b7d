/**
 * The composer's suggestions while the agent types: `/word` offers canned replies (replies only), `@name` offers
 * members (notes only). Owns which list is open, the highlighted option, picking one and the keys that move in it.
 */
import { type KeyboardEvent, type RefObject, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { type CannedReplyContact, fillCannedReply } from '@shared/canned-replies';
import { useCannedReplies } from '../api/list-canned-replies';
import { cannedQuery, matchCannedReplies, matchMembers, mentionQuery } from '../components/composer-assist';
import type { Suggestion } from '../components/composer-suggestions';
import type { TextForm } from '../components/composer-types';

type Assist = { kind: 'canned'; query: string } | { kind: 'mention'; query: string; at: number } | null;

interface AssistOptions {
  conversationId: string;
  workspaceId: string;
  note: boolean;
  contact?: CannedReplyContact;
  members: { id: string; name: string }[];
  form: UseFormReturn<TextForm>;
  textarea: RefObject<HTMLTextAreaElement | null>;
  /** A canned reply went in (its unfilled variables are then watched). */
  onCanned: () => void;
  /** Called after any pick, once the text changed (the textarea refits its height). */
  onPicked: () => void;
}

export function useComposerAssist({ conversationId, workspaceId, note, contact, members, form, textarea, onCanned, onPicked }: AssistOptions) {
  const [assist, setAssist] = useState<Assist>(null);
  const [active, setActive] = useState(0);
  const canned = useCannedReplies(workspaceId, !note && assist?.kind === 'canned');

  const suggestions: Suggestion[] =
    assist?.kind === 'canned'
      ? matchCannedReplies(canned.data ?? [], assist.query).map((r) => ({ id: r.id, label: `/${r.shortcut}`, detail: r.text, badge: r.scope === 'personal' ? 'mine' : undefined }))
      : assist?.kind === 'mention'
        ? matchMembers(members, assist.query).map((m) => ({ id: m.id, label: `@${m.name}` }))
        : [];
  const listId = `composer-assist-${conversationId}`;
  const open = assist !== null && (suggestions.length > 0 || assist.kind === 'canned');

  const update = (value: string, caret: number) => {
    const q = note ? null : cannedQuery(value);
    const m = note ? mentionQuery(value, caret) : null;
    const next: Assist = q !== null ? { kind: 'canned', query: q } : m ? { kind: 'mention', ...m } : null;
    setAssist(next);
    setActive(0);
  };

  const pick = (index: number) => {
    if (!assist) return;
    if (assist.kind === 'canned') {
      const reply = matchCannedReplies(canned.data ?? [], assist.query)[index];
      if (!reply) return;
      const filled = contact ? fillCannedReply(reply.text, contact) : { text: reply.text };
      form.setValue('text', filled.text, { shouldValidate: false });
      onCanned();
    } else {
      const member = matchMembers(members, assist.query)[index];
      if (!member) return;
      const value = form.getValues('text');
      const caret = textarea.current?.selectionStart ?? value.length;
      const next = `${value.slice(0, assist.at)}@${member.name} ${value.slice(caret)}`;
      form.setValue('text', next);
      requestAnimationFrame(() => {
        const pos = assist.at + member.name.length + 2;
        textarea.current?.setSelectionRange(pos, pos);
      });
    }
    setAssist(null);
    onPicked();
  };

  /** The keys the open list takes (arrows, Enter/Tab to pick, Escape to close); true when one was taken. */
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (open && suggestions.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : suggestions.length - 1)) % suggestions.length);
        return true;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        pick(active);
        return true;
      }
    }
    if (open && e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setAssist(null);
      return true;
    }
    return false;
  };

  return {
    kind: assist?.kind,
    open,
    listId,
    suggestions,
    active,
    setActive,
    cannedLoading: canned.isPending,
    update,
    pick,
    onKeyDown,
  };
}
