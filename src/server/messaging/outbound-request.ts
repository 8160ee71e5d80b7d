/**
 * What the outbound path takes (src/server/messaging/outbound.ts): who sends (the actor), to whom (a conversation,
 * or a contact on a WhatsApp number), what (every kind of message Parley sends) and the idempotency key. Zod
 * schemas, because a send also travels as the payload of the `messages.send` job.
 */
import { z } from 'zod';

const uuid = z.uuid();

/** On whose behalf a message goes out; events and stored messages say so (spec section 3). */
export const Actor = z.discriminatedUnion('type', [
  z.object({ type: z.literal('member'), memberId: uuid }),
  z.object({ type: z.literal('bot'), botId: uuid }),
  z.object({ type: z.literal('campaign'), campaignId: uuid }),
  z.object({ type: z.literal('system') }),
]);
export type Actor = z.infer<typeof Actor>;

export const actorId = (a: Actor): string | null =>
  a.type === 'member' ? a.memberId : a.type === 'bot' ? a.botId : a.type === 'campaign' ? a.campaignId : null;

/** The stored message's creator: the spec knows user, agent and bot; automated senders count as bot. */
export const creatorOf = (a: Actor): 'agent' | 'bot' => (a.type === 'member' ? 'agent' : 'bot');

/** `CONVERSATION_ASSIGNED.assignedByType` of an actor (a campaign assigns as the system). */
export const assignedByOf = (a: Actor): { assignedByType: 'member' | 'bot' | 'system'; assignedById: string | null } =>
  a.type === 'member'
    ? { assignedByType: 'member', assignedById: a.memberId }
    : a.type === 'bot'
      ? { assignedByType: 'bot', assignedById: a.botId }
      : { assignedByType: 'system', assignedById: null };

/** An existing conversation, or a contact on a number (its latest conversation there, or a new one). */
export const OutboundTarget = z.union([
  z.object({ conversationId: uuid }),
  z.object({ contactId: uuid, whatsappAccountId: uuid }),
]);
export type OutboundTarget = z.infer<typeof OutboundTarget>;

const Json = z.record(z.string(), z.unknown());
const MediaRef = z.union([z.object({ id: z.string().min(1) }).strict(), z.object({ link: z.string().min(1) }).strict()]);
const InteractiveHeader = z.union([
  z.object({ type: z.literal('text'), text: z.string().min(1).max(60) }),
  z.object({ type: z.literal('image'), image: MediaRef }),
  z.object({ type: z.literal('video'), video: MediaRef }),
  z.object({
    type: z.literal('document'),
    document: z.union([
      z.object({ id: z.string().min(1), filename: z.string().optional() }).strict(),
      z.object({ link: z.string().min(1), filename: z.string().optional() }).strict(),
    ]),
  }),
]);
export type OutboundHeader = z.infer<typeof InteractiveHeader>;
const Texts = { body: z.string().min(1).max(1024), footer: z.string().max(60).optional() };

/** Every kind of message Parley sends. Templates come prepared (components filled, what the thread shows). */
export const OutboundContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().min(1).max(4096), previewUrl: z.boolean().optional() }),
  z.object({
    type: z.literal('template'),
    templateId: uuid.nullable(),
    name: z.string().min(1),
    language: z.string().min(1),
    /** Send components as WhatsApp takes them (header/body/button parameters). */
    components: z.array(Json),
    /** What the conversation shows: the filled header, body text, footer and buttons. */
    header: Json.nullable(),
    text: z.string().nullable(),
    footer: z.string().nullable(),
    action: Json.nullable(),
  }),
  z.object({
    type: z.enum(['image', 'video', 'document', 'audio']), // audio: addition, no caption at WhatsApp
    media: MediaRef,
    caption: z.string().max(1024).optional(),
    filename: z.string().max(240).optional(),
  }),
  z.object({
    type: z.literal('list'),
    header: z.string().min(1).max(60).optional(),
    ...Texts,
    button: z.string().min(1).max(20),
    sections: z.array(z.object({ title: z.string().max(24).optional(), rows: z.array(z.object({ id: z.string().min(1).max(200), title: z.string().min(1).max(24), description: z.string().max(72).optional() })).min(1) })).min(1).max(10),
  }),
  z.object({
    type: z.literal('buttons'),
    header: InteractiveHeader.optional(),
    ...Texts,
    buttons: z.array(z.object({ id: z.string().min(1).max(256), title: z.string().min(1).max(20) })).min(1).max(3),
  }),
  z.object({
    type: z.literal('flow'),
    header: InteractiveHeader.optional(),
    ...Texts,
    flowId: z.string().min(1).optional(),
    flowName: z.string().min(1).optional(),
    cta: z.string().min(1).max(20),
    flowToken: z.string().optional(),
    screen: z.string().optional(),
    data: Json.optional(),
    mode: z.enum(['draft', 'published']).optional(),
  }),
]);
export type OutboundContent = z.infer<typeof OutboundContent>;

export const OutboundRequest = z.object({
  workspaceId: uuid,
  actor: Actor,
  target: OutboundTarget,
  content: OutboundContent,
  /**
   * One send, however often it is attempted: a second call with the same key (a retried job) answers the first
   * one's outcome and never sends again. Campaigns use e.g. `campaign:<run>:<recipient>:<step>`.
   */
  idempotencyKey: z.string().min(1).max(200),
  /** Quote-reply to this wamid. */
  replyTo: z.string().optional(),
});
export type OutboundRequest = z.infer<typeof OutboundRequest>;
