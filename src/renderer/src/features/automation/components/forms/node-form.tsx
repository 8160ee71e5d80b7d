/** The form of one node, by kind (the inspector renders it for the selected node). */
import type { BotNodeType } from '@shared/schemas/bot-canvas';
import type { ComponentType } from 'react';
import { ConditionBranchForm, ConditionForm, HTTPRequestForm } from './logic-forms';
import { HumanHandoffForm, MediaForm, SendEmailForm, SendMessageForm, StartForm } from './message-forms';
import { CollectInputForm, ListButtonForm, ListForm, ReplyButtonForm, ReplyForm, WhatsappFlowForm } from './question-forms';
import type { NodeFormProps } from './types';

export const nodeForms: { [K in BotNodeType]: ComponentType<NodeFormProps<K>> } = {
  StartNode: StartForm,
  SendMessageNode: SendMessageForm,
  MediaNode: MediaForm,
  CollectInputNode: CollectInputForm,
  ListNode: ListForm,
  ListButtonNode: ListButtonForm,
  ReplyNode: ReplyForm,
  ReplyButtonNode: ReplyButtonForm,
  WhatsappFlowNode: WhatsappFlowForm,
  ConditionNode: ConditionForm,
  ConditionBranchNode: ConditionBranchForm,
  HTTPRequestNode: HTTPRequestForm,
  SendEmailNode: SendEmailForm,
  HumanHandoffNode: HumanHandoffForm,
};
