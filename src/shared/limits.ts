/** Business constants and limits (product spec sections 5 and 9, plus our own where the spec is silent). */
export const limits = {
  userName: { min: 3, max: 50 },
  organizationName: { min: 3, max: 50 },
  workspaceName: { min: 3, max: 50 },
  password: { min: 8, max: 50 },
  templateName: { min: 1, max: 512 },
  bot: {
    headerMax: 60,
    footerMax: 60,
    bodyMax: 1024,
    emailSubjectMax: 60,
    emailBodyMax: 1024,
    listButtonName: { min: 1, max: 20 },
    listItemLabel: { min: 1, max: 24 },
    replyButtonLabel: { min: 1, max: 20 },
    flowCta: { min: 1, max: 20 },
  },
  /** Ours: a page of any list. */
  page: { defaultLimit: 50, maxLimit: 200 },
  /** Ours: free-text fields that the spec leaves open. */
  text: { title: 200, description: 1000, generic: 4096 },
  /** WhatsApp Cloud API: text message body. */
  whatsappTextMax: 4096,
} as const;

export const delayUnits = ['hours', 'days'] as const;
export const liveChatTabs = ['me', 'assigned', 'open', 'closed'] as const;
export const defaultLiveChatTab = 'closed' as const;
export const toastDefaults = { position: 'bottom-right', visibleToasts: 3, duration: 4000 } as const;
