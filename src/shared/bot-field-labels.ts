/**
 * What the bot editor calls each step kind and each field of a step's data, so a problem found by the schemas
 * names the step and the field as the form shows them ("Collect input: Save the answer in: …"), never a schema
 * path such as `messageBlocks.0.text`.
 */
import type { BotNodeType } from './schemas/bot-canvas';

export const botKindTitles: Record<BotNodeType, string> = {
  StartNode: 'Start',
  SendMessageNode: 'Send message',
  MediaNode: 'Media',
  CollectInputNode: 'Collect input',
  ListNode: 'List',
  ListButtonNode: 'List item',
  ReplyNode: 'Reply buttons',
  ReplyButtonNode: 'Button',
  WhatsappFlowNode: 'WhatsApp Flow',
  ConditionNode: 'Condition',
  ConditionBranchNode: 'Branch',
  HTTPRequestNode: 'HTTP request',
  SendEmailNode: 'Send e-mail',
  HumanHandoffNode: 'Human handoff',
};

/** The form labels of top-level fields, the same in every kind unless the kind's own table says otherwise. */
const fieldLabels: Record<string, string> = {
  label: 'Label',
  header: 'Header',
  body: 'Body',
  footer: 'Footer',
  errorMessage: 'Error message',
  url: 'URL',
  method: 'Method',
  bodyType: 'Body type',
  timeoutMs: 'Timeout (ms)',
  mediaLink: 'Link',
  mediaType: 'Kind',
  caption: 'Caption',
  filename: 'File name',
  to: 'To',
  cc: 'Cc',
  bcc: 'Bcc',
  subject: 'Subject',
  assigneeMemberId: 'Assign to',
  messageOnChatAssigned: 'Message to the customer',
  buttonName: 'Menu button',
  flowCTA: 'Button',
  flowId: 'Flow',
  selectedAttributeId: 'Save the choice in',
  noAnswerTimeoutMinutes: 'No answer after (minutes)',
  idleExpiryMinutes: 'End a quiet session after (minutes)',
  startCondition: 'Start a session on',
  variableId: 'Save the answer in',
  branches: 'Branches',
  messageBlocks: 'Texts',
  headers: 'Headers',
  responseMappings: 'Response mappings',
  attributeMapping: 'Flow fields',
};

const kindFieldLabels: Partial<Record<BotNodeType, Record<string, string>>> = {
  StartNode: { variableId: 'Keep the first message in' },
  CollectInputNode: { body: 'Question', errorMessage: 'When the answer does not fit' },
  ListNode: { errorMessage: 'When the customer types instead of choosing' },
  ReplyNode: { errorMessage: 'When the customer types instead of tapping' },
  WhatsappFlowNode: { errorMessage: 'When the customer does not fill the flow' },
  ListButtonNode: { label: 'Item label' },
  ReplyButtonNode: { label: 'Button label' },
  ConditionBranchNode: { label: 'Branch name' },
};

/** One entry of a list field, by the list's key: "Text 2", "Branch 1". */
const itemNouns: Record<string, string> = {
  messageBlocks: 'Text',
  branches: 'Branch',
  conditions: 'condition',
  headers: 'Header',
  responseMappings: 'Response mapping',
  attributeMapping: 'Flow field',
  keywords: 'Keyword',
  to: 'To address',
  cc: 'Cc address',
  bcc: 'Bcc address',
};

/** Fields inside a list entry or an object field; an empty name adds nothing ("Text 1", not "Text 1, text"). */
const innerLabels: Record<string, string> = {
  text: '',
  type: '',
  attributeId: 'attribute',
  value: 'value',
  key: 'name',
  path: 'path',
  objectKey: 'field',
  operator: 'comparison',
  label: 'name',
  conditions: 'conditions',
  keywords: 'keywords',
  match: 'match',
};

/** The field a schema issue is about, in the form's words: ["messageBlocks", 0, "text"] is "Text 1". */
export function botFieldName(kind: BotNodeType, path: readonly PropertyKey[]): string {
  const parts: string[] = [];
  let listKey = '';
  path.forEach((segment, i) => {
    if (typeof segment === 'number') {
      parts[parts.length - 1] = `${itemNouns[listKey] ?? 'Entry'} ${segment + 1}`;
      return;
    }
    const key = String(segment);
    listKey = key;
    const name = i === 0 ? (kindFieldLabels[kind]?.[key] ?? fieldLabels[key]) : innerLabels[key];
    if (name === undefined) parts.push(key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
    else if (name) parts.push(name);
  });
  return parts.join(', ');
}
