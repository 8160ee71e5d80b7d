import * as z from '../zod';
import { limits } from '../limits';
import { messages, productMessages } from '../messages';
import { Email } from './auth';
import { Id, Timestamp } from './common';
import { Edge, Key, ShortText, Viewport, canvasRefinement, reactFlowNode as node } from './react-flow';

const b = limits.bot;
const lim = limits.request;
const Label = z.string().max(limits.text.title);
const Url = z.url({ error: productMessages.mustBeUrl }).max(lim.url);
const Header = z.string().max(b.headerMax);
const Footer = z.string().max(b.footerMax);
const Body = z.string().min(1, { error: messages.fieldEmpty }).max(b.bodyMax);

export const AttributeMappingEntry = z.strictObject({
  id: Key.min(1),
  objectKey: ShortText.min(1, { error: messages.fieldEmpty }),
  attributeId: Key.min(1, { error: messages.fieldEmpty }),
});

export const ConditionOperator = z.enum(['EQUALS', 'NOT_EQUALS']);
export const Condition = z.strictObject({
  id: Key.min(1),
  attributeId: Key.min(1, { error: messages.fieldEmpty }),
  operator: ConditionOperator,
  value: z.string().max(limits.text.description),
});
export const ConditionBranch = z.strictObject({
  id: Key.min(1),
  label: Label,
  type: z.literal('Normal'),
  conditions: z.array(Condition).min(1, { error: productMessages.branchConditions }).max(lim.listItems),
});

/**
 * Run-time constants of bots (ours). Handles name the extra outgoing edges a node may have besides its normal
 * one (the edge without a sourceHandle, or with any other handle).
 */
export const botRuntime = {
  /** An edge from a waiting node with this sourceHandle is followed when the customer does not answer in time. */
  noAnswerHandle: 'noAnswer',
  /** An edge from an HTTPRequest node with this sourceHandle is followed when the call fails. */
  failureHandle: 'failure',
  /** An edge from a List, Reply or WhatsappFlow node with this sourceHandle is followed after too many invalid answers. */
  invalidHandle: 'invalid',
  /** Invalid answers a waiting node accepts (each gets its errorMessage and the question again) before giving up. */
  maxInvalidAnswers: 3,
  /** Nodes a session may run in a row without waiting for the customer before the loop guard ends it. */
  maxStepsWithoutAnswer: 50,
  /** HTTP calls a session may make in a row without waiting for the customer (a node calling itself, a loop of them). */
  maxHttpCallsWithoutAnswer: 10,
  /** Session idle expiry when the Start node sets none, in minutes (a session also ends with the 24-hour window). */
  defaultIdleExpiryMinutes: 60,
  http: { defaultTimeoutMs: 10_000, minTimeoutMs: 100, maxTimeoutMs: 30_000, maxResponseBytes: 1_000_000 },
  /** The answer a CollectInput node sends when the customer's answer does not fit the attribute's format. */
  defaultFormatError: 'Please check your answer and try again',
} as const;

/** Minutes a waiting node waits before following its `noAnswer` edge (addition). */
const NoAnswerTimeout = z.number().int().min(1).max(24 * 60);

/** Addition: when an inbound message starts a session (any message, or one matching a keyword). */
export const BotStartCondition = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('anyMessage') }),
  z.strictObject({
    type: z.literal('keywords'),
    keywords: z.array(ShortText.trim().min(1, { error: messages.fieldEmpty })).min(1, { error: 'Add at least one keyword' }).max(lim.listItems),
    /** exact: the whole message equals a keyword; contains: the message contains one. Any case. */
    match: z.enum(['exact', 'contains']),
  }),
]);
export type BotStartCondition = z.infer<typeof BotStartCondition>;

export const StartNodeData = z.strictObject({
  label: Label,
  variableId: Key.optional(),
  /** Addition: defaults to any message. */
  startCondition: BotStartCondition.optional(),
  /** Addition: a session with no customer message for this long ends (default botRuntime.defaultIdleExpiryMinutes). */
  idleExpiryMinutes: z.number().int().min(1).max(24 * 60).optional(),
});
export const CollectInputNodeData = z.strictObject({
  label: Label,
  body: Body,
  variableId: Key.min(1),
  /** Addition: sent when the answer does not fit the attribute's format (default botRuntime.defaultFormatError). */
  errorMessage: z.string().max(limits.whatsappTextMax).optional(),
  noAnswerTimeoutMinutes: NoAnswerTimeout.optional(),
});
export const ConditionNodeData = z.strictObject({
  label: Label,
  branches: z.array(ConditionBranch).min(1, { error: productMessages.conditionBranches }).max(lim.listItems),
});
export const ConditionBranchNodeData = z.strictObject({ label: Label, type: z.enum(['Default', 'Normal']) });
export const SendEmailNodeData = z.strictObject({
  label: Label,
  to: z.array(Email).max(lim.listItems),
  cc: z.array(Email).max(lim.listItems),
  bcc: z.array(Email).max(lim.listItems),
  subject: z.string().max(b.emailSubjectMax),
  body: z.string().max(b.emailBodyMax),
});
export const HumanHandoffNodeData = z.strictObject({
  label: Label,
  assigneeMemberId: Key.min(1, { error: messages.fieldEmpty }),
  messageOnChatAssigned: z.string().max(limits.whatsappTextMax),
});
export const HttpMethod = z.enum(['GET', 'POST', 'PUT', 'PATCH']);
/**
 * Addition: where a part of an HTTP answer goes. `path` is a JSONPath subset: `$`, then `.key` or `['key']` or
 * `[index]` steps (`$.data.items[0].id`).
 */
export const HttpResponseMapping = z.strictObject({
  id: Key.min(1),
  path: ShortText.regex(/^\$((\.[A-Za-z_$][\w$-]*)|(\[\d+\])|(\['[^']*'\]))*$/, { error: 'Enter a path such as $.data.id' }),
  attributeId: Key.min(1, { error: messages.fieldEmpty }),
});
export const HTTPRequestNodeData = z.strictObject({
  label: Label,
  url: Url,
  method: HttpMethod,
  headers: z.array(z.strictObject({ key: ShortText.min(1), value: z.string().max(limits.text.generic) })).max(lim.listItems),
  body: z.string().max(limits.text.generic).optional(),
  bodyType: z.enum(['raw', 'form']),
  /** Addition: milliseconds before the call is given up (default botRuntime.http.defaultTimeoutMs). */
  timeoutMs: z.number().int().min(botRuntime.http.minTimeoutMs).max(botRuntime.http.maxTimeoutMs).optional(),
  /** Addition: parts of a JSON answer stored in attributes. */
  responseMappings: z.array(HttpResponseMapping).max(lim.listItems).optional(),
});
export const ListNodeData = z.strictObject({
  label: Label,
  header: Header.optional(),
  body: Body,
  buttonName: z.string().min(b.listButtonName.min).max(b.listButtonName.max),
  footer: Footer.optional(),
  errorMessage: z.string().max(limits.whatsappTextMax),
  selectedAttributeId: Key.optional(),
  /** Addition: minutes before the `noAnswer` edge is followed. */
  noAnswerTimeoutMinutes: NoAnswerTimeout.optional(),
});
export const ListButtonNodeData = z.strictObject({
  label: z.string().min(b.listItemLabel.min).max(b.listItemLabel.max),
});
export const MediaType = z.enum(['image', 'video', 'document']);
export const MediaNodeData = z.strictObject({
  label: Label,
  mediaLink: Url,
  mediaType: MediaType,
  caption: z.string().max(b.bodyMax).optional(),
  filename: z.string().max(240).optional(),
});
export const MessageBlock = z.strictObject({
  id: Key.min(1),
  type: z.literal('text').default('text'),
  text: z.string().min(1, { error: messages.fieldEmpty }).max(limits.whatsappTextMax),
});
export const SendMessageNodeData = z.strictObject({ label: Label, messageBlocks: z.array(MessageBlock).max(lim.listItems) });
export const ReplyNodeData = z.strictObject({
  label: Label,
  header: Header.optional(),
  body: Body,
  footer: Footer.optional(),
  errorMessage: z.string().max(limits.whatsappTextMax),
  selectedAttributeId: Key.optional(),
  /** Addition: minutes before the `noAnswer` edge is followed. */
  noAnswerTimeoutMinutes: NoAnswerTimeout.optional(),
});
export const ReplyButtonNodeData = z.strictObject({
  label: z.string().min(b.replyButtonLabel.min).max(b.replyButtonLabel.max),
});
export const WhatsappFlowNodeData = z.strictObject({
  label: Label,
  header: Header.optional(),
  body: Body,
  errorMessage: z.string().max(limits.whatsappTextMax),
  footer: Footer.optional(),
  flowCTA: z.string().min(b.flowCta.min).max(b.flowCta.max),
  flowId: Key.min(1, { error: messages.fieldEmpty }),
  attributeMapping: z.array(AttributeMappingEntry).max(lim.listItems),
  /** Addition: minutes before the `noAnswer` edge is followed. */
  noAnswerTimeoutMinutes: NoAnswerTimeout.optional(),
});

export const StartNode = node('StartNode', StartNodeData).extend({ deletable: z.literal(false).default(false) });
export const CollectInputNode = node('CollectInputNode', CollectInputNodeData);
export const ConditionNode = node('ConditionNode', ConditionNodeData);
export const ConditionBranchNode = node('ConditionBranchNode', ConditionBranchNodeData);
export const SendEmailNode = node('SendEmailNode', SendEmailNodeData);
export const HumanHandoffNode = node('HumanHandoffNode', HumanHandoffNodeData);
export const HTTPRequestNode = node('HTTPRequestNode', HTTPRequestNodeData);
export const ListNode = node('ListNode', ListNodeData);
export const ListButtonNode = node('ListButtonNode', ListButtonNodeData);
export const MediaNode = node('MediaNode', MediaNodeData);
export const SendMessageNode = node('SendMessageNode', SendMessageNodeData);
export const ReplyNode = node('ReplyNode', ReplyNodeData);
export const ReplyButtonNode = node('ReplyButtonNode', ReplyButtonNodeData);
export const WhatsappFlowNode = node('WhatsappFlowNode', WhatsappFlowNodeData);

/** All 14 bot node kinds, discriminated by `type` (React Flow's node type). */
export const BotNode = z.discriminatedUnion('type', [
  StartNode,
  CollectInputNode,
  ConditionNode,
  ConditionBranchNode,
  SendEmailNode,
  HumanHandoffNode,
  HTTPRequestNode,
  ListNode,
  ListButtonNode,
  MediaNode,
  SendMessageNode,
  ReplyNode,
  ReplyButtonNode,
  WhatsappFlowNode,
]);
export type BotNode = z.infer<typeof BotNode>;
export type BotNodeType = BotNode['type'];

export const BotRfInstance = z
  .strictObject({ nodes: z.array(BotNode).max(lim.canvasNodes), edges: z.array(Edge).max(lim.canvasEdges), viewport: Viewport.optional() })
  .superRefine(canvasRefinement('StartNode'));
export type BotRfInstance = z.infer<typeof BotRfInstance>;

// ---------- Drafts (addition) ----------

/**
 * The lenient twin of a node data schema, for drafts: every field may be missing or empty (an unfinished node
 * saves), while lengths, list sizes, enums and numbers keep their bounds, so nothing oversized is stored.
 * The strict schemas above are applied at deploy time (shared/bot-validation.ts), listing every problem.
 */
function lenient(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return lenient(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodDefault) return lenient(schema.def.innerType as z.ZodType).optional();
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, lenient(v as z.ZodType).optional()]));
    return z.strictObject(shape);
  }
  if (schema instanceof z.ZodArray) {
    const max = schema.def.checks?.map((c) => c._zod.def as { check: string; maximum?: number }).find((c) => c.check === 'max_length')?.maximum;
    return z.array(lenient(schema.element as z.ZodType)).max(max ?? lim.listItems);
  }
  if (schema.def.type === 'string') return z.string().max((schema as z.ZodString).maxLength ?? limits.text.generic);
  if (schema instanceof z.ZodDiscriminatedUnion) return z.union(schema.options.map((o) => lenient(o as z.ZodType)) as [z.ZodType, z.ZodType]);
  return schema.optional();
}
/** What a draft holds of a node's data: any field may be missing. */
export type DraftOf<T> = T extends (infer E)[] ? DraftOf<E>[] : T extends object ? { [K in keyof T]?: DraftOf<T[K]> } : T;
const draftNode = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  node(type, lenient(data) as unknown as z.ZodType<DraftOf<z.output<D>>>);

/** A bot node as a draft holds it: the kind, id and position are required, the data may be unfinished. */
export const BotDraftNode = z.discriminatedUnion('type', [
  draftNode('StartNode', StartNodeData).extend({ deletable: z.literal(false).default(false) }),
  draftNode('CollectInputNode', CollectInputNodeData),
  draftNode('ConditionNode', ConditionNodeData),
  draftNode('ConditionBranchNode', ConditionBranchNodeData),
  draftNode('SendEmailNode', SendEmailNodeData),
  draftNode('HumanHandoffNode', HumanHandoffNodeData),
  draftNode('HTTPRequestNode', HTTPRequestNodeData),
  draftNode('ListNode', ListNodeData),
  draftNode('ListButtonNode', ListButtonNodeData),
  draftNode('MediaNode', MediaNodeData),
  draftNode('SendMessageNode', SendMessageNodeData),
  draftNode('ReplyNode', ReplyNodeData),
  draftNode('ReplyButtonNode', ReplyButtonNodeData),
  draftNode('WhatsappFlowNode', WhatsappFlowNodeData),
]);
export type BotDraftNode = z.infer<typeof BotDraftNode>;

/** A bot canvas as a draft (what PATCH /bot/{id} stores and GET answers): unfinished node data allowed. */
export const BotDraftRfInstance = z
  .strictObject({ nodes: z.array(BotDraftNode).max(lim.canvasNodes), edges: z.array(Edge).max(lim.canvasEdges), viewport: Viewport.optional() })
  .superRefine(canvasRefinement('StartNode'));
export type BotDraftRfInstance = z.infer<typeof BotDraftRfInstance>;

/** The strict data schema of each kind, for the validator and the node forms. */
export const botNodeDataSchemas = {
  StartNode: StartNodeData,
  CollectInputNode: CollectInputNodeData,
  ConditionNode: ConditionNodeData,
  ConditionBranchNode: ConditionBranchNodeData,
  SendEmailNode: SendEmailNodeData,
  HumanHandoffNode: HumanHandoffNodeData,
  HTTPRequestNode: HTTPRequestNodeData,
  ListNode: ListNodeData,
  ListButtonNode: ListButtonNodeData,
  MediaNode: MediaNodeData,
  SendMessageNode: SendMessageNodeData,
  ReplyNode: ReplyNodeData,
  ReplyButtonNode: ReplyButtonNodeData,
  WhatsappFlowNode: WhatsappFlowNodeData,
} satisfies Record<BotNodeType, z.ZodType>;

// ---------- Versions and preview (additions to the route table) ----------

/** A published, immutable version of a bot's canvas: when and by whom it was published. */
export const BotVersion = z.object({
  id: Id,
  botId: Id,
  /** 1, 2, 3... per bot. */
  version: z.number().int(),
  createdAt: Timestamp,
  /** The member who published it. */
  memberId: Id,
  /** True for the version new sessions start on (the bot's latest publication). */
  isPublished: z.boolean(),
});
export type BotVersion = z.infer<typeof BotVersion>;
export const BotVersionDetail = BotVersion.extend({ rfInstance: BotRfInstance });
export type BotVersionDetail = z.infer<typeof BotVersionDetail>;

/** Addition: a workspace's bot settings. `emailFrom`: the From address of its bots' e-mails (null: the server's SMTP_FROM). */
export const BotSettings = z.object({ emailFrom: z.string().nullable() });
export type BotSettings = z.infer<typeof BotSettings>;
/** An address, alone or with a display name: `bots@bakery.com` or `Bakery <bots@bakery.com>`. */
const mailbox = /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/;
export const BotSettingsBody = z.strictObject({
  emailFrom: z.string().trim().max(320).regex(mailbox, { error: 'Enter an address such as bots@bakery.com or Bakery <bots@bakery.com>' }).nullable(),
});

/** A preview session's state: kept by the client between turns and sent back with each answer (nothing is stored). */
export const BotPreviewSession = z.strictObject({
  currentNodeId: Key.nullable(),
  step: z.number().int().min(0).max(1_000_000),
  waitingFor: z.enum(['input', 'reply', 'list', 'flow']).nullable(),
  invalidAnswers: z.number().int().min(0).max(100),
  /** Attribute values collected, by attribute id. */
  variables: z.record(Key, z.string().max(limits.text.generic)),
  ended: z.boolean(),
});
export type BotPreviewSession = z.infer<typeof BotPreviewSession>;

/** What the simulated customer does: types, taps a reply button or a list row (by its node id), submits a flow, or stays silent. */
export const BotPreviewAnswer = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string().min(1).max(limits.whatsappTextMax) }),
  z.strictObject({ type: z.literal('button'), id: Key.min(1) }),
  z.strictObject({ type: z.literal('listRow'), id: Key.min(1) }),
  z.strictObject({ type: z.literal('flow'), response: z.record(ShortText, z.union([z.string().max(limits.text.generic), z.number(), z.boolean()])) }),
  z.strictObject({ type: z.literal('noAnswer') }),
]);
export type BotPreviewAnswer = z.infer<typeof BotPreviewAnswer>;
export const BotPreviewAnswerBody = z.strictObject({ session: BotPreviewSession, answer: BotPreviewAnswer });

/**
 * A bot output as WhatsApp would show it. `note` is what the preview shows instead of a side effect it does not
 * perform or that happens off the chat (an e-mail, a handoff, an HTTP call's outcome).
 */
export const BotPreviewMessage = z.object({
  nodeId: z.string(),
  type: z.enum(['text', 'image', 'video', 'document', 'reply', 'list', 'flow', 'note']),
  text: z.string().nullable(),
  header: z.string().nullable(),
  footer: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  filename: z.string().nullable(),
  /** Reply buttons and list rows: id (the button or item node id, what an answer sends back) and title. */
  buttons: z.array(z.object({ id: z.string(), title: z.string() })),
  /** The list's button name, or the flow's call to action. */
  actionLabel: z.string().nullable(),
});
export type BotPreviewMessage = z.infer<typeof BotPreviewMessage>;

export const BotPreviewTurn = z.object({
  session: BotPreviewSession,
  /** What the bot sent in this turn, in order. */
  messages: z.array(BotPreviewMessage),
  /** The node to highlight (null once the session ended). */
  currentNodeId: z.string().nullable(),
  /** Attributes collected so far, by attribute name. */
  attributes: z.record(z.string(), z.string()),
  ended: z.boolean(),
  /** Why the session ended: completed, handoff, failed (loop guard, unusable answer) or noAnswer. */
  endReason: z.string().nullable(),
});
export type BotPreviewTurn = z.infer<typeof BotPreviewTurn>;
