import type { ServiceDeps } from './context';
import { authService } from './auth-service';
import { workspaceService } from './workspace-service';
import { automationService } from './automation-service';
import { audienceService } from './audience-service';
import { teamService } from './team-service';
import { conversationService } from './conversation-service';

export function buildServices(deps: ServiceDeps) {
  return {
    deps,
    auth: authService(deps),
    workspaces: workspaceService(deps),
    automation: automationService(deps),
    audience: audienceService(deps),
    team: teamService(deps),
    conversations: conversationService(deps),
  };
}
export type Services = ReturnType<typeof buildServices>;
