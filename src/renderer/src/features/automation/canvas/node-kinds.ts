/**
 * The 14 bot node kinds as the editor knows them: name, palette group, icon, the data a new node starts with,
 * and which kinds are children of which (a Condition's branches, a List's items, a Reply's buttons). Children
 * are canvas nodes of their own with `parentId` set to their parent, each with its own outgoing edge, so a
 * choice or a branch leads wherever its edge goes.
 */
import {
  type BotNode,
  type BotNodeType,
  CollectInputNodeData,
  ConditionBranchNodeData,
  ConditionNodeData,
  HTTPRequestNodeData,
  HumanHandoffNodeData,
  ListButtonNodeData,
  ListNodeData,
  MediaNodeData,
  ReplyButtonNodeData,
  ReplyNodeData,
  SendEmailNodeData,
  SendMessageNodeData,
  StartNodeData,
  WhatsappFlowNodeData,
} from '@shared/schemas/bot-canvas';
import {
  CircleDot,
  FileInput,
  GitBranch,
  Globe,
  Hand,
  Image,
  List,
  ListChecks,
  Mail,
  MessageSquare,
  MousePointerClick,
  Play,
  Split,
  Workflow,
  type LucideIcon,
} from 'lucide-react';
import type { z } from 'zod';

export type BotNodeData<K extends BotNodeType> = Extract<BotNode, { type: K }>['data'];
export type PaletteGroup = 'Messages' | 'Questions' | 'Logic' | 'Integrations';

export interface BotNodeKind<K extends BotNodeType = BotNodeType> {
  type: K;
  title: string;
  description: string;
  icon: LucideIcon;
  /** Tailwind classes of the node's icon badge. */
  tone: string;
  /** Palette group; children and Start are not in the palette (they are added from their parent). */
  group: PaletteGroup | null;
  schema: z.ZodType<BotNodeData<K>>;
  newData: (id: () => string) => BotNodeData<K>;
  /** Kinds whose nodes are children of this kind, with the most a parent may hold. */
  child?: { type: BotNodeType; max: number; noun: string };
  /** Whether the node has an outgoing edge of its own (parents with children route through the children). */
  hasOutput: boolean;
}

/** Meta's limits: 10 rows in a list message, 3 reply buttons; our limit on condition branches. */
export const childLimits = { ListButtonNode: 10, ReplyButtonNode: 3, ConditionBranchNode: 50 } as const;

const kinds: { [K in BotNodeType]: BotNodeKind<K> } = {
  StartNode: {
    type: 'StartNode', title: 'Start', description: 'Where every conversation with the bot begins.', icon: Play,
    tone: 'bg-emerald-500/15 text-emerald-700 dark:text-emerald-300', group: null, schema: StartNodeData,
    newData: () => ({ label: 'Start' }), hasOutput: true,
  },
  SendMessageNode: {
    type: 'SendMessageNode', title: 'Send message', description: 'One or more text messages.', icon: MessageSquare,
    tone: 'bg-sky-500/15 text-sky-700 dark:text-sky-300', group: 'Messages', schema: SendMessageNodeData,
    newData: (id) => ({ label: 'Send message', messageBlocks: [{ id: id(), type: 'text', text: '' }] }), hasOutput: true,
  },
  MediaNode: {
    type: 'MediaNode', title: 'Media', description: 'An image, video or document.', icon: Image,
    tone: 'bg-sky-500/15 text-sky-700 dark:text-sky-300', group: 'Messages', schema: MediaNodeData,
    newData: () => ({ label: 'Media', mediaLink: '', mediaType: 'image' }), hasOutput: true,
  },
  CollectInputNode: {
    type: 'CollectInputNode', title: 'Collect input', description: 'Ask a question and keep the answer.', icon: FileInput,
    tone: 'bg-violet-500/15 text-violet-700 dark:text-violet-300', group: 'Questions', schema: CollectInputNodeData,
    newData: () => ({ label: 'Collect input', body: '', variableId: '' }), hasOutput: true,
  },
  ListNode: {
    type: 'ListNode', title: 'List', description: 'A menu of up to 10 choices.', icon: List,
    tone: 'bg-violet-500/15 text-violet-700 dark:text-violet-300', group: 'Questions', schema: ListNodeData,
    newData: () => ({ label: 'List', body: '', buttonName: 'Choose', errorMessage: 'Please pick one of the options.' }),
    child: { type: 'ListButtonNode', max: childLimits.ListButtonNode, noun: 'item' }, hasOutput: false,
  },
  ListButtonNode: {
    type: 'ListButtonNode', title: 'List item', description: 'One choice of a list.', icon: ListChecks,
    tone: 'bg-violet-500/10 text-violet-700 dark:text-violet-300', group: null, schema: ListButtonNodeData,
    newData: () => ({ label: '' }), hasOutput: true,
  },
  ReplyNode: {
    type: 'ReplyNode', title: 'Reply buttons', description: 'A question with up to 3 buttons.', icon: MousePointerClick,
    tone: 'bg-violet-500/15 text-violet-700 dark:text-violet-300', group: 'Questions', schema: ReplyNodeData,
    newData: () => ({ label: 'Reply buttons', body: '', errorMessage: 'Please tap one of the buttons.' }),
    child: { type: 'ReplyButtonNode', max: childLimits.ReplyButtonNode, noun: 'button' }, hasOutput: false,
  },
  ReplyButtonNode: {
    type: 'ReplyButtonNode', title: 'Button', description: 'One button of a reply.', icon: CircleDot,
    tone: 'bg-violet-500/10 text-violet-700 dark:text-violet-300', group: null, schema: ReplyButtonNodeData,
    newData: () => ({ label: '' }), hasOutput: true,
  },
  WhatsappFlowNode: {
    type: 'WhatsappFlowNode', title: 'WhatsApp Flow', description: 'A form the customer fills in WhatsApp.', icon: Workflow,
    tone: 'bg-violet-500/15 text-violet-700 dark:text-violet-300', group: 'Questions', schema: WhatsappFlowNodeData,
    newData: () => ({ label: 'WhatsApp Flow', body: '', errorMessage: 'Please fill in the form.', flowCTA: 'Open', flowId: '', attributeMapping: [] }),
    hasOutput: true,
  },
  ConditionNode: {
    type: 'ConditionNode', title: 'Condition', description: 'Branch on attribute values.', icon: Split,
    tone: 'bg-amber-500/15 text-amber-700 dark:text-amber-300', group: 'Logic', schema: ConditionNodeData,
    newData: () => ({ label: 'Condition', branches: [] }),
    child: { type: 'ConditionBranchNode', max: childLimits.ConditionBranchNode, noun: 'branch' }, hasOutput: false,
  },
  ConditionBranchNode: {
    type: 'ConditionBranchNode', title: 'Branch', description: 'One way out of a condition.', icon: GitBranch,
    tone: 'bg-amber-500/10 text-amber-700 dark:text-amber-300', group: null, schema: ConditionBranchNodeData,
    newData: () => ({ label: 'Branch', type: 'Normal' }), hasOutput: true,
  },
  HTTPRequestNode: {
    type: 'HTTPRequestNode', title: 'HTTP request', description: 'Call a web service.', icon: Globe,
    tone: 'bg-rose-500/15 text-rose-700 dark:text-rose-300', group: 'Integrations', schema: HTTPRequestNodeData,
    newData: () => ({ label: 'HTTP request', url: '', method: 'GET', headers: [], bodyType: 'raw' }), hasOutput: true,
  },
  SendEmailNode: {
    type: 'SendEmailNode', title: 'Send e-mail', description: 'E-mail your team or the customer.', icon: Mail,
    tone: 'bg-rose-500/15 text-rose-700 dark:text-rose-300', group: 'Integrations', schema: SendEmailNodeData,
    newData: () => ({ label: 'Send e-mail', to: [], cc: [], bcc: [], subject: '', body: '' }), hasOutput: true,
  },
  HumanHandoffNode: {
    type: 'HumanHandoffNode', title: 'Human handoff', description: 'Assign the conversation to a member.', icon: Hand,
    tone: 'bg-rose-500/15 text-rose-700 dark:text-rose-300', group: 'Integrations', schema: HumanHandoffNodeData,
    newData: () => ({ label: 'Human handoff', assigneeMemberId: '', messageOnChatAssigned: '' }), hasOutput: false,
  },
};

export const botNodeKinds = kinds as { [K in BotNodeType]: BotNodeKind<K> };
export const paletteGroups: PaletteGroup[] = ['Messages', 'Questions', 'Logic', 'Integrations'];
/** The kind whose children `type` nodes are (ListButtonNode -> ListNode). */
export const parentKindOf = (type: BotNodeType): BotNodeType | undefined =>
  (Object.values(botNodeKinds) as BotNodeKind[]).find((k) => k.child?.type === type)?.type;
