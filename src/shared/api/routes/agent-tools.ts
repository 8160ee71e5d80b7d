// Additions for agents at work: canned replies, internal notes and mentions, search, media sends.
import { chatMediaMaxBytes, chatMediaMimeTypes } from '../../chat-media';
import {
  CannedReply,
  CannedReplyListQuery,
  ChatMediaUpload,
  ConversationSearchQuery,
  ConversationSearchResult,
  CreateCannedReplyBody,
  CreateMediaMessageBody,
  CreateNoteBody,
  Mention,
  MentionCount,
  MentionListQuery,
  MessageSearchPage,
  MessageSearchQuery,
  PatchCannedReplyBody,
} from '../../schemas/agent-tools';
import { pageOf, Success } from '../../schemas/common';
import { Message } from '../../schemas/entities';
import { agentIn, pathParams, route, wsBody, wsParams } from './define';

export const agentToolRoutes = {
  listCannedReplies: route({
    method: 'GET', path: '/workspace/:workspaceId/canned-replies', tag: 'canned-reply',
    summary: "The workspace's canned replies and the caller's personal ones, by shortcut; `search` matches shortcut and text",
    params: pathParams.workspace, query: CannedReplyListQuery, status: 200, response: pageOf(CannedReply), access: wsParams('agent'), addition: true,
  }),
  createCannedReply: route({
    method: 'POST', path: '/canned-reply', tag: 'canned-reply',
    summary: 'Save a canned reply: scope workspace (admins) or personal (any member, seen only by them); 409 if the shortcut is taken',
    body: CreateCannedReplyBody, status: 201, response: CannedReply, access: wsBody('agent'), addition: true,
  }),
  patchCannedReply: route({
    method: 'PATCH', path: '/canned-reply/:cannedReplyId', tag: 'canned-reply',
    summary: "Change a canned reply's shortcut or text (workspace replies: admins; personal: their member)",
    params: pathParams.cannedReply, body: PatchCannedReplyBody, status: 200, response: CannedReply, access: agentIn('cannedReply', 'cannedReplyId'), addition: true,
  }),
  deleteCannedReply: route({
    method: 'DELETE', path: '/canned-reply/:cannedReplyId', tag: 'canned-reply',
    summary: 'Delete a canned reply (workspace replies: admins; personal: their member)',
    params: pathParams.cannedReply, status: 200, response: Success, access: agentIn('cannedReply', 'cannedReplyId'), addition: true,
  }),
  createNote: route({
    method: 'POST', path: '/message/note', tag: 'message',
    summary: 'Leave an internal note in a conversation (never sent to WhatsApp); mentioned members are told on the event stream',
    body: CreateNoteBody, status: 201, response: Message,
    access: { kind: 'resource', resource: 'conversation', in: 'body', field: 'conversationId', role: 'agent' }, addition: true,
  }),
  uploadChatMedia: route({
    method: 'POST', path: '/conversation/:conversationId/media', tag: 'message',
    summary: "Upload a file to send in a conversation (WhatsApp's media types; images 5 MB, video and audio 16 MB, documents 100 MB)",
    params: pathParams.conversation, multipart: { field: 'file', maxBytes: chatMediaMaxBytes, mimeTypes: chatMediaMimeTypes },
    status: 201, response: ChatMediaUpload, access: agentIn('conversation', 'conversationId'), addition: true,
  }),
  sendMediaMessage: route({
    method: 'POST', path: '/message/media', tag: 'message',
    summary: 'Send an uploaded image, video, audio file or document (with an optional caption) inside the 24-hour window',
    body: CreateMediaMessageBody, status: 201, response: Message,
    access: { kind: 'resource', resource: 'conversation', in: 'body', field: 'conversationId', role: 'agent' }, addition: true,
  }),
  listMentions: route({
    method: 'GET', path: '/workspace/:workspaceId/mentions', tag: 'message',
    summary: "Notes that mention the caller, newest first; `unread=true` for those not yet seen",
    params: pathParams.workspace, query: MentionListQuery, status: 200, response: pageOf(Mention), access: wsParams('agent'), addition: true,
  }),
  countMentions: route({
    method: 'GET', path: '/workspace/:workspaceId/mentions/count', tag: 'message', summary: "How many of the caller's mentions are unread",
    params: pathParams.workspace, status: 200, response: MentionCount, access: wsParams('agent'), addition: true,
  }),
  markMentionsRead: route({
    method: 'POST', path: '/conversation/:conversationId/mentions/read', tag: 'conversation',
    summary: "Mark the caller's mentions in this conversation seen",
    params: pathParams.conversation, status: 200, response: Success, access: agentIn('conversation', 'conversationId'), addition: true,
  }),
  searchConversation: route({
    method: 'GET', path: '/conversation/:conversationId/search', tag: 'conversation',
    summary: 'Every message of the conversation matching the words of `q` (full text, word prefixes), oldest first',
    params: pathParams.conversation, query: ConversationSearchQuery, status: 200, response: ConversationSearchResult,
    access: agentIn('conversation', 'conversationId'), addition: true,
  }),
  searchMessages: route({
    method: 'GET', path: '/workspace/:workspaceId/messages/search', tag: 'workspace',
    summary: "Messages of the workspace's conversations matching the words of `q` (full text, word prefixes), newest first",
    params: pathParams.workspace, query: MessageSearchQuery, status: 200, response: MessageSearchPage, access: wsParams('agent'), addition: true,
  }),
} as const;
