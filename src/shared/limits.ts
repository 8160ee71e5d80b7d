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
  /** Ours: the newest CampaignLogs a campaign list entry embeds (its logCounts count them all). */
  campaignListLogs: 100,
  /** Ours: campaigns. A delay step waits at most 30 days; a deploy may be scheduled up to a year ahead. */
  campaign: { maxDelayHours: 720, maxScheduleDays: 365, triggerCallsPer10s: 100, progressEventMs: 1000, pairRateRetrySeconds: [6, 24, 96] },
  /** Ours: free-text fields that the spec leaves open. */
  text: { title: 200, description: 1000, generic: 4096 },
  /** WhatsApp Cloud API: text message body. */
  whatsappTextMax: 4096,
  /**
   * Ours: sizes of request parts that neither Meta nor the spec bounds, so that every string and array of a
   * request has a maximum (tests/shared/request-limits.test.ts). Meta's own limits are kept where it has them
   * (template buttons 10, one component of each kind, list rows 10 and reply buttons 3 as canvas nodes).
   */
  request: {
    /** Ids and handles a client makes up (canvas node ids, React Flow handles, flow ids). */
    key: 128,
    /** Short free text (labels, CSS values, header keys). */
    shortText: 256,
    url: 2048,
    canvasNodes: 500,
    canvasEdges: 2000,
    /** Branches of a condition node, conditions of a branch, message blocks, mappings, headers, recipients. */
    listItems: 50,
    /** HEADER, BODY, FOOTER, BUTTONS: one of each. */
    templateComponents: 4,
    /** Sample values of a template (Meta takes one sample set; a body has at most this many variables). */
    templateExamples: 100,
  },
} as const;

export const delayUnits = ['hours', 'days'] as const;
export const liveChatTabs = ['me', 'assigned', 'open', 'closed'] as const;
export const defaultLiveChatTab = 'closed' as const;
export const toastDefaults = { position: 'bottom-right', visibleToasts: 3, duration: 4000 } as const;
