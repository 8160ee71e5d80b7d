/**
 * The query keys a contact's change reaches on more than one screen: the audience's contact lists and live chat's
 * conversations. The features build their own keys on these, so a change made on one screen shows on the other.
 */
export const contactListsKey = (workspaceId: string) => ['audience', 'contacts', workspaceId] as const;
export const liveChatKey = ['live-chat'] as const;
export const conversationListsKey = (workspaceId: string) => ['live-chat', 'conversations', workspaceId] as const;
