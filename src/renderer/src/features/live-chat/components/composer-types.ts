/** What the composer takes and gives, apart from its parts so they can share it without importing each other. */
import type { ReactNode } from 'react';
import { z } from 'zod';
import type { CannedReplyContact } from '@shared/canned-replies';
import { CreateMessageBody } from '@shared/schemas/requests';
import type { WindowState } from '../utils/window';

export const TextForm = z.object({ text: CreateMessageBody.shape.text });
export type TextForm = z.infer<typeof TextForm>;

export type Mode = 'reply' | 'note';

export interface ComposerHandle {
  /** Puts the cursor in the message box (or the template picker outside the window). */
  focus: () => void;
}

export interface ComposerProps {
  conversationId: string;
  workspaceId: string;
  window: WindowState;
  onSent?: () => void;
  /** Whose conversation it is: canned replies fill `{{name}}` and attributes from it. */
  contact?: CannedReplyContact;
  /** Who can be @mentioned in a note. */
  members?: { id: string; name: string }[];
  /** Buttons of other composer features (interactive messages), shown before Send. */
  extraActions?: ReactNode;
  /** Conversation tools shown at the right of the Reply / Internal note tabs (search). */
  tools?: ReactNode;
}
