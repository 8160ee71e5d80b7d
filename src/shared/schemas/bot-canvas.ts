import * as z from '../zod';
import { limits } from '../limits';
import { messages, productMessages } from '../messages';
import { Email } from './auth';
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

export const StartNodeData = z.strictObject({ label: Label, variableId: Key.optional() });
export const CollectInputNodeData = z.strictObject({ label: Label, body: Body, variableId: Key.min(1) });
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
export const HTTPRequestNodeData = z.strictObject({
  label: Label,
  url: Url,
  method: HttpMethod,
  headers: z.array(z.strictObject({ key: ShortText.min(1), value: z.string().max(limits.text.generic) })).max(lim.listItems),
  body: z.string().max(limits.text.generic).optional(),
  bodyType: z.enum(['raw', 'form']),
});
export const ListNodeData = z.strictObject({
  label: Label,
  header: Header.optional(),
  body: Body,
  buttonName: z.string().min(b.listButtonName.min).max(b.listButtonName.max),
  footer: Footer.optional(),
  errorMessage: z.string().max(limits.whatsappTextMax),
  selectedAttributeId: Key.optional(),
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
export const botNodeTypes = BotNode.options.map((o) => o.shape.type.value) as BotNodeType[];

export const BotRfInstance = z
  .strictObject({ nodes: z.array(BotNode).max(lim.canvasNodes), edges: z.array(Edge).max(lim.canvasEdges), viewport: Viewport.optional() })
  .superRefine(canvasRefinement('StartNode'));
export type BotRfInstance = z.infer<typeof BotRfInstance>;
