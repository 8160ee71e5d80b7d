/** Query keys of the audience screens. */
export const audienceKeys = {
  contacts: (workspaceId: string) => ['audience', 'contacts', workspaceId] as const,
  contactList: (workspaceId: string, search: string, segmentId: string | null, optedOut: boolean | null = null) =>
    ['audience', 'contacts', workspaceId, search, segmentId, optedOut] as const,
  imports: (workspaceId: string) => ['audience', 'imports', workspaceId] as const,
};
