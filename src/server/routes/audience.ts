/** Attributes, contacts (and their export and imports), segments. */
import type { Handlers } from '../http/types';
import type { Services } from '../http/services';
import { sendCsv } from './csv-reply';

export const audienceRoutes = (s: Services) =>
  ({
    listAttributes: ({ ctx, query }) => s.audience.listAttributes(ctx, query),
    createAttribute: ({ ctx, body }) => s.audience.createAttribute(ctx, body),
    patchAttribute: ({ ctx, params, body }) => s.audience.patchAttribute(ctx, params.attributeId, body),
    deleteAttribute: ({ ctx, params }) => s.audience.deleteAttribute(ctx, params.attributeId),

    listContacts: ({ ctx, query }) => s.audience.listContacts(ctx, query),
    exportContacts: async ({ ctx, query, reply }) => sendCsv(reply, await s.contactExport.exportCsv(ctx, query)),
    countContacts: ({ ctx, query }) => s.contacts.count(ctx, query),
    createContact: ({ ctx, body }) => s.contacts.create(ctx, body),
    deleteContact: ({ ctx, params }) => s.contacts.remove(ctx, params.contactId),
    patchContact: async ({ ctx, params, body }) => {
      const { optedOut, ...rest } = body;
      const contact = await s.audience.patchContact(ctx, params.contactId, rest);
      // An agent opts the contact back in to campaigns (or out).
      if (optedOut === undefined) return contact;
      await s.campaignOptOut.setOptedOut(ctx, params.contactId, optedOut);
      return { ...contact, optedOut };
    },

    listSegments: ({ ctx, query }) => s.audience.listSegments(ctx, query),
    createSegment: ({ ctx, body }) => s.audience.createSegment(ctx, body),
    previewSegment: ({ ctx, body }) => s.audience.previewSegment(ctx, body),
    deleteSegment: ({ ctx, params }) => s.audience.deleteSegment(ctx, params.segmentId),

    listImportHistory: ({ ctx, query }) => s.imports.list(ctx, query),
    createImport: ({ ctx, body }) => s.imports.create(ctx, body),
    uploadImportFile: ({ ctx, request }) => s.uploads.importFile(ctx, request),
  }) satisfies Partial<Handlers>;
