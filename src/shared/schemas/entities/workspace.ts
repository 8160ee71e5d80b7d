// A workspace, the signed-in member with their workspaces, and a workspace with its attributes and members.
import * as z from '../../zod';
import { limits } from '../../limits';
import { productMessages } from '../../messages';
import { Member, MemberProfile } from '../auth';
import { Id, Timestamp } from '../common';
import { Attribute } from './attribute';

export const WorkspaceName = z
  .string({ error: productMessages.workspaceName })
  .trim()
  .min(limits.workspaceName.min, { error: productMessages.workspaceName })
  .max(limits.workspaceName.max, { error: productMessages.workspaceName });

export const Workspace = z.object({ id: Id, createdAt: Timestamp, name: z.string(), memberIds: z.array(Id) });
export type Workspace = z.infer<typeof Workspace>;

export const AuthMe = Member.extend({ Workspaces: z.array(Workspace) });
export type AuthMe = z.infer<typeof AuthMe>;

export const WorkspaceDetail = Workspace.extend({ Attribute: z.array(Attribute), Member: z.array(MemberProfile) });
export type WorkspaceDetail = z.infer<typeof WorkspaceDetail>;
