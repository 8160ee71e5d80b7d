/**
 * Additions of issue 19 (live chat for agents): canned replies, internal notes and @mentions, message search
 * and media sends. Requests are strict and bounded like every other request of the contract.
 */
import * as z from '../zod';
import { messages } from '../messages';
import { chatMediaCaptionMax, chatMediaKinds } from '../chat-media';
import { Id, PageQuery, Timestamp } from './common';
import { Contact, Message } from './entities';

// ---------- canned replies ----------
export const CannedReplyScope = z.enum(['workspace', 'personal']);
export const CannedReplyShortcut = z
  .string()
  .trim()
  .min(1, { error: messages.fieldEmpty })
  .max(40)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, { error: 'Shortcuts use letters, digits, - and _ (no spaces)' });
export const CannedReplyText = z.string().trim().min(1, { error: messages.fieldEmpty }).max(4096);

export const CannedReply = z.object({
  id: Id,
  workspaceId: Id,
  /** `workspace`: every member sees it, admins manage it; `personal`: only its member sees and manages it. */
  scope: CannedReplyScope,
  shortcut: z.string(),
  text: z.string(),
  /** Who made it (the owner of a personal reply). */
  memberId: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type CannedReply = z.infer<typeof CannedReply>;

export const CreateCannedReplyBody = z.strictObject({
  workspaceId: Id,
  scope: CannedReplyScope,
  shortcut: CannedReplyShortcut,
  text: CannedReplyText,
});
export const PatchCannedReplyBody = z.strictObject({
  shortcut: CannedReplyShortcut.optional(),
  text: CannedReplyText.optional(),
});
export const CannedReplyListQuery = PageQuery.extend({
  search: z.string().max(200).optional(),
  scope: CannedReplyScope.optional(),
});

// ---------- notes and mentions ----------
export const CreateNoteBody = z.strictObject({
  conversationId: Id,
  text: z.string().trim().min(1, { error: messages.fieldEmpty }).max(4096),
  /** Members named with `@` in the text (the composer resolves the names); each must belong to the workspace. */
  mentionedMemberIds: z.array(Id).max(50).default([]),
});

export const Mention = z.object({
  id: Id,
  workspaceId: Id,
  conversationId: Id,
  /** The note that mentions. */
  message: Message,
  memberId: Id,
  mentionedByMemberId: Id,
  createdAt: Timestamp,
  readAt: Timestamp.nullable(),
  /** Whose conversation it is, so the list can say so without another call. */
  contact: Contact.pick({ id: true, name: true, phoneNumber: true }),
});
export type Mention = z.infer<typeof Mention>;
export const MentionListQuery = PageQuery.extend({ unread: z.enum(['true', 'false']).optional() });
export const MentionCount = z.object({ unread: z.number().int().min(0) });

// ---------- search ----------
export const SearchText = z.string().trim().min(1, { error: messages.fieldEmpty }).max(200);
export const ConversationSearchQuery = z.strictObject({ q: SearchText });
/** Every match in a conversation, oldest first: the client jumps between them and pages back to load one. */
export const ConversationSearchResult = z.object({
  matches: z.array(z.object({ id: Id, createdAt: Timestamp })),
  /** The words searched for, as the highlight should find them. */
  terms: z.array(z.string()),
});
export const MessageSearchQuery = PageQuery.extend({ q: SearchText });
export const MessageSearchHit = z.object({
  message: Message,
  contact: Contact.pick({ id: true, name: true, phoneNumber: true }),
});
export const MessageSearchPage = z.object({
  items: z.array(MessageSearchHit),
  nextCursor: z.string().nullable(),
  terms: z.array(z.string()),
});

// ---------- media ----------
export const ChatMediaKind = z.enum(chatMediaKinds);
export const ChatMediaUpload = z.object({
  /** The file in this workspace's store: what POST /message/media sends. */
  mediaUrl: z.string(),
  type: ChatMediaKind,
  mimeType: z.string(),
  fileName: z.string(),
  size: z.number().int().min(0),
});
export const CreateMediaMessageBody = z.strictObject({
  conversationId: Id,
  /** An address answered by POST /conversation/{id}/media (a file of this workspace). */
  mediaUrl: z.string().min(1).max(2048),
  caption: z.string().trim().max(chatMediaCaptionMax).optional(),
  /** Shown to the customer for documents; defaults to the uploaded file's name. */
  filename: z.string().trim().min(1).max(240).optional(),
});
