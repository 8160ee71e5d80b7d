/**
 * Additions (live chat for agents): canned replies, internal notes and @mentions, message search
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

// ---------- interactive messages (reply buttons, list menus) ----------
/**
 * WhatsApp's limits for interactive messages (shared/reference/whatsapp-cloud-api.md: reply buttons 1-3, title
 * ≤ 20, unique; list: button ≤ 20, 1-10 sections with at most 10 rows in all, section and row titles ≤ 24,
 * descriptions ≤ 72; body ≤ 1024 (the older, stricter figure for lists), header and footer ≤ 60).
 */
export const interactiveLimits = {
  bodyMax: 1024,
  headerMax: 60,
  footerMax: 60,
  buttonsMax: 3,
  buttonTitleMax: 20,
  listButtonMax: 20,
  sectionsMax: 10,
  rowsMax: 10,
  sectionTitleMax: 24,
  rowTitleMax: 24,
  rowDescriptionMax: 72,
} as const;
const L = interactiveLimits;
const tooLong = (what: string, max: number) => ({ error: `${what} can be at most ${max} characters` });
const needed = (what: string) => ({ error: `${what} is required` });
const interactiveTexts = {
  conversationId: Id,
  /** Plain text above the body (optional). */
  header: z.string().trim().max(L.headerMax, tooLong('The header', L.headerMax)).optional(),
  body: z.string().trim().min(1, needed('The message text')).max(L.bodyMax, tooLong('The message text', L.bodyMax)),
  footer: z.string().trim().max(L.footerMax, tooLong('The footer', L.footerMax)).optional(),
};
export const InteractiveButtonsBody = z.strictObject({
  type: z.literal('buttons'),
  ...interactiveTexts,
  buttons: z
    .array(z.strictObject({ title: z.string().trim().min(1, needed('A button title')).max(L.buttonTitleMax, tooLong('A button title', L.buttonTitleMax)) }))
    .min(1, { error: 'Add at least one button' })
    .max(L.buttonsMax, { error: `WhatsApp allows at most ${L.buttonsMax} reply buttons` })
    .refine((bs) => new Set(bs.map((b) => b.title.toLowerCase())).size === bs.length, { error: 'Each button needs a different title' }),
});
export const InteractiveListRow = z.strictObject({
  title: z.string().trim().min(1, needed('A row title')).max(L.rowTitleMax, tooLong('A row title', L.rowTitleMax)),
  description: z.string().trim().max(L.rowDescriptionMax, tooLong('A row description', L.rowDescriptionMax)).optional(),
});
export const InteractiveListBody = z
  .strictObject({
    type: z.literal('list'),
    ...interactiveTexts,
    /** The button that opens the menu. */
    button: z.string().trim().min(1, needed('The menu button text')).max(L.listButtonMax, tooLong('The menu button text', L.listButtonMax)),
    sections: z
      .array(
        z.strictObject({
          title: z.string().trim().max(L.sectionTitleMax, tooLong('A section title', L.sectionTitleMax)).optional(),
          rows: z.array(InteractiveListRow).min(1, { error: 'Each section needs at least one row' }).max(L.rowsMax, { error: `WhatsApp allows at most ${L.rowsMax} rows` }),
        }),
      )
      .min(1, { error: 'Add at least one row' })
      .max(L.sectionsMax, { error: `WhatsApp allows at most ${L.sectionsMax} sections` }),
  })
  .superRefine((b, ctx) => {
    const rows = b.sections.flatMap((s) => s.rows);
    if (rows.length > L.rowsMax) ctx.addIssue({ code: 'custom', path: ['sections'], message: `WhatsApp allows at most ${L.rowsMax} rows in all sections together` });
    if (new Set(rows.map((r) => r.title.toLowerCase())).size !== rows.length) ctx.addIssue({ code: 'custom', path: ['sections'], message: 'Each row needs a different title' });
    if (b.sections.length > 1 && b.sections.some((s) => !s.title)) ctx.addIssue({ code: 'custom', path: ['sections'], message: 'With more than one section, each section needs a title' });
  });
/** POST /message/interactive (addition): reply buttons or a list menu, inside the 24-hour window. */
export const CreateInteractiveMessageBody = z.discriminatedUnion('type', [InteractiveButtonsBody, InteractiveListBody]);
export type CreateInteractiveMessageBody = z.infer<typeof CreateInteractiveMessageBody>;
