// What a route of the table is (method, path, schemas, access) and the small helpers every domain's part of
// the table is written with.
import * as z from '../../zod';
import { Id, type Role } from '../../schemas/common';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Tenant resources addressed by id; the server resolves each to its workspace before anything else. */
export const resourceKinds = [
  'bot',
  'campaign',
  'attribute',
  'contact',
  'conversation',
  'invitee',
  'segment',
  'whatsappTemplate',
  'whatsappAccount',
  'cannedReply',
] as const;
export type ResourceKind = (typeof resourceKinds)[number];

/**
 * Who may call a route.
 * - public: no token (sign-up, invitation look-up).
 * - signedIn: any valid token (own profile, creating a workspace).
 * - workspace: `workspaceId` in the path or body names the workspace; the caller must be a member with `role`.
 * - resource: the id in the path (or body) names a tenant resource; its workspace is looked up, then as above.
 * - currentWorkspace: uploads that carry no workspace id act in the caller's current workspace.
 * `role` is the least role: `agent` lets agents and admins in, `admin` only admins.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'signedIn' }
  | { kind: 'workspace'; in: 'params' | 'body'; role: Role }
  | { kind: 'resource'; resource: ResourceKind; in: 'params' | 'body'; field: string; role: Role }
  | { kind: 'currentWorkspace'; role: Role }
  /**
   * Addition: a resource route that other systems call. Either the campaign's own trigger key
   * (`Authorization: Bearer <key>` or `X-Parley-Key: <key>`; not an identity, so the e-mail-verification rule
   * does not apply; rate-limited per key) or, as `resource`, a member with `role`.
   */
  | { kind: 'campaignKey'; resource: 'campaign'; in: 'params'; field: string; role: Role };

export interface MultipartSpec {
  /** Form field holding the file. */
  field: string;
  maxBytes: number;
  /** Accepted MIME types; `*` wildcards allowed after the slash (image/*). */
  mimeTypes: readonly string[];
}

export interface RouteDef {
  method: Method;
  /** Fastify-style path (`:param`); the spec writes `{param}`. */
  path: string;
  summary: string;
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  multipart?: MultipartSpec;
  status: 200 | 201;
  response: z.ZodType;
  access: Access;
  /** Not in the product spec: added because the product needs it. */
  addition?: boolean;
  /** Set while the capability behind the route has not landed: the server answers 501 with this text. */
  pending?: string;
  /**
   * A server-sent event stream (text/event-stream) instead of one JSON answer: `response` is the schema of each
   * event's data. Same access check as any route; the token may also come as `?token=` (EventSource).
   */
  stream?: true;
}

/** Path parameters, one strict object per kind of id in a path. */
export const pathParams = {
  bot: z.strictObject({ botId: Id }),
  botVersion: z.strictObject({ botId: Id, versionId: Id }),
  campaign: z.strictObject({ campaignId: Id }),
  attribute: z.strictObject({ attributeId: Id }),
  contact: z.strictObject({ contactId: Id }),
  conversation: z.strictObject({ conversationId: Id }),
  workspace: z.strictObject({ workspaceId: Id }),
  workspaceMember: z.strictObject({ workspaceId: Id, memberId: Id }),
  id: z.strictObject({ id: Id }),
  template: z.strictObject({ templateId: Id }),
  segment: z.strictObject({ segmentId: Id }),
  whatsappAccount: z.strictObject({ whatsappAccountId: Id }),
  inviteToken: z.strictObject({ inviteToken: z.string().min(1).max(256) }),
  cannedReply: z.strictObject({ cannedReplyId: Id }),
};

export const MB = 1024 * 1024;

export const agentIn = (resource: ResourceKind, field: string): Access => ({ kind: 'resource', resource, in: 'params', field, role: 'agent' });
export const adminIn = (resource: ResourceKind, field: string): Access => ({ kind: 'resource', resource, in: 'params', field, role: 'admin' });
export const wsParams = (role: Role): Access => ({ kind: 'workspace', in: 'params', role });
export const wsBody = (role: Role): Access => ({ kind: 'workspace', in: 'body', role });

/** Checks a route against RouteDef and keeps its literal type (the typed client and server infer from it). */
export function route<const R extends RouteDef>(r: R): R {
  return r;
}
