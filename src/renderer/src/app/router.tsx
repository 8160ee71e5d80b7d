/**
 * The route tree of product spec section 2 (code-based TanStack Router).
 *
 * - Public: `/`, `/invite/$inviteId`.
 * - Guest-only (`/login`, `/signup`, `/forgot-password`, `/verify-email-address`): a signed-in user with a
 *   verified e-mail goes to the `redirect` search param, else to `/live-chat?tab=closed`.
 * - Signed-in (everything else): without a signed-in, verified user -> `/login?redirect=<current location>`.
 *   An unverified e-mail counts as signed out (spec section 4).
 * - Loaders reuse the screens' query options (ensureQueryData); query data counts as stale on preload.
 */
import type { QueryClient } from '@tanstack/react-query';
import {
  type RouterHistory,
  createBrowserHistory,
  createHashHistory,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
} from '@tanstack/react-router';
import { z } from 'zod';
import { defaultLiveChatTab, liveChatTabs } from '@shared/limits';
import { meQueryOptions } from '../lib/queries/session';
import { whatsappAccountsQueryOptions } from '../lib/queries/whatsapp-accounts';
import { attributesQueryOptions } from '../lib/queries/attributes';
import { RootLayout } from './document-title';
import { landingHref, safeRedirect } from '../lib/paths';
import { authSettled, isSignedIn, useAuthStore, workspaceIdOf } from '../stores/auth-store';
import { ErrorScreen, NotFoundScreen, RoutePending } from '../components/error-screens';
import { SignedInShell } from './signed-in-shell';
import { GuestLayout } from '../components/layout/guest-layout';
import { LandingPage } from '../features/landing/landing-page';
import { LoginPage } from '../features/auth/components/login-page';
import { SignUpPage } from '../features/auth/components/sign-up-page';
import { ForgotPasswordPage } from '../features/auth/components/forgot-password-page';
import { VerifyEmailPage } from '../features/auth/components/verify-email-page';
import { InvitePage } from '../features/auth/components/invite-page';
import { TemplatesPage } from '../features/templates/components/templates-page';
import { CreateTemplatePage } from '../features/templates/components/create-template-page';
import { templatesQueryOptions } from '../lib/queries/templates';
import { BotsPage } from '../features/automation/components/bots-page';
import { botsQueryOptions } from '../lib/queries/bots';
import { botQueryOptions } from '../features/automation/api/get-bot';
import { CampaignsPage } from '../features/campaigns/components/campaigns-page';
import { campaignsQueryOptions } from '../features/campaigns/api/get-campaigns';
import { campaignQueryOptions } from '../features/campaigns/api/get-campaign';
import { SettingsLayout } from '../features/settings/components/settings-layout';
import { SettingsIndexPage } from '../features/settings/components/settings-index-page';
import { ProfilePage } from '../features/settings/components/profile-page';
import { WhatsappAccountsPage } from '../features/settings/components/whatsapp-accounts-page';
import { SegmentsPage } from '../features/settings/components/segments-page';
import { segmentsQueryOptions } from '../lib/queries/segments';
import { MembersPage } from '../features/settings/components/members-page';
import { membersQueryOptions } from '../features/settings/api/get-members';
import { inviteesQueryOptions } from '../features/settings/api/get-invitees';
import { AttributesPage } from '../features/settings/components/attributes-page';
import { CampaignSettingsPage } from '../features/settings/components/campaign-settings-page';
import { BotSettingsPage } from '../features/settings/components/bot-settings-page';
import { GoingLivePage } from '../features/settings/components/going-live-page';
import { botSettingsQueryOptions } from '../features/settings/api/get-bot-settings';
import { campaignSettingsQueryOptions } from '../features/settings/api/get-campaign-settings';
import { RateCardPage } from '../features/settings/components/rate-card-page';
import { rateCardQueryOptions } from '../features/settings/api/rate-card';
import { CannedRepliesPage } from '../features/canned-replies/components/canned-replies-page';
import { cannedRepliesQueryOptions } from '../features/canned-replies/api/canned-replies';
import { ConversationPage, LiveChatPage, conversationLoader, liveChatLoader } from '../features/live-chat';
import { AudiencePage, audienceLoader } from '../features/audience';

export interface RouterContext {
  queryClient: QueryClient;
}

/**
 * The two canvas editors (bots and campaigns) load on first visit, so React Flow stays out of the start-up
 * bundle (electron.vite.config.ts fails the build if it or these pages end up there).
 */
const BotPage = lazyRouteComponent(() => import('../features/automation/components/bot-page'), 'BotPage');
const CampaignPage = lazyRouteComponent(() => import('../features/campaigns/components/campaign-page'), 'CampaignPage');

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundScreen,
  errorComponent: ErrorScreen,
});

// ---------- public ----------
const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: LandingPage });
const inviteRoute = createRoute({ getParentRoute: () => rootRoute, path: '/invite/$inviteId', component: InvitePage });

// ---------- guest-only ----------
const guestRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'guest',
  component: GuestLayout,
  beforeLoad: async ({ search }) => {
    await authSettled();
    if (isSignedIn(useAuthStore.getState())) {
      throw redirect({ href: safeRedirect((search as { redirect?: unknown }).redirect) ?? landingHref(), replace: true });
    }
  },
});

const loginRoute = createRoute({
  getParentRoute: () => guestRoute,
  path: '/login',
  validateSearch: z.object({ redirect: z.string().optional().catch(undefined) }),
  component: LoginPage,
});
const signUpRoute = createRoute({
  getParentRoute: () => guestRoute,
  path: '/signup',
  validateSearch: z.object({ email: z.string().optional().catch(undefined), token: z.string().optional().catch(undefined) }),
  component: SignUpPage,
});
const forgotPasswordRoute = createRoute({ getParentRoute: () => guestRoute, path: '/forgot-password', component: ForgotPasswordPage });
const verifyEmailRoute = createRoute({
  getParentRoute: () => guestRoute,
  path: '/verify-email-address',
  validateSearch: z.object({ redirect: z.string().optional().catch(undefined) }),
  component: VerifyEmailPage,
});

// ---------- signed-in ----------
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  component: SignedInShell,
  beforeLoad: async ({ context, location }) => {
    await authSettled();
    if (!isSignedIn(useAuthStore.getState())) {
      throw redirect({ to: '/login', search: { redirect: location.href }, replace: true });
    }
    const me = await context.queryClient.ensureQueryData(meQueryOptions());
    useAuthStore.getState().setMember(me);
    const workspaceId = workspaceIdOf(me);
    if (!workspaceId) throw new Error('This account belongs to no workspace');
    return { me, workspaceId };
  },
});

const liveChatRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/live-chat',
  validateSearch: z.object({ tab: z.enum(liveChatTabs).catch(defaultLiveChatTab).default(defaultLiveChatTab) }),
  loaderDeps: ({ search }) => ({ tab: search.tab }),
  loader: ({ context, deps }) =>
    liveChatLoader({ queryClient: context.queryClient, workspaceId: context.workspaceId, params: {}, search: deps }),
  component: LiveChatPage,
});
const conversationRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/live-chat/$conversationId',
  loader: ({ context, params }) =>
    conversationLoader({ queryClient: context.queryClient, workspaceId: context.workspaceId, params, search: {} }),
  component: ConversationPage,
});
const audienceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/audience',
  loader: async ({ context }) => {
    await Promise.all([
      context.queryClient.ensureQueryData(attributesQueryOptions(context.workspaceId)),
      audienceLoader({ queryClient: context.queryClient, workspaceId: context.workspaceId }),
    ]);
  },
  component: AudiencePage,
});

const botsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/automation',
  loader: ({ context }) => context.queryClient.ensureQueryData(botsQueryOptions(context.workspaceId)),
  component: BotsPage,
});
const botRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/automation/$botId',
  loader: ({ context, params }) => context.queryClient.ensureQueryData(botQueryOptions(params.botId)),
  component: BotPage,
});
const campaignsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/campaigns',
  loader: ({ context }) => context.queryClient.ensureQueryData(campaignsQueryOptions(context.workspaceId)),
  component: CampaignsPage,
});
const campaignRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/campaigns/$campaignId',
  loader: ({ context, params }) => context.queryClient.ensureQueryData(campaignQueryOptions(params.campaignId)),
  component: CampaignPage,
});
const templatesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/templates',
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(templatesQueryOptions(context.workspaceId)),
      context.queryClient.ensureQueryData(whatsappAccountsQueryOptions(context.workspaceId)),
    ]),
  component: TemplatesPage,
});
const createTemplateRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/templates/create',
  loader: ({ context }) => context.queryClient.ensureQueryData(whatsappAccountsQueryOptions(context.workspaceId)),
  component: CreateTemplatePage,
});

const settingsRoute = createRoute({ getParentRoute: () => appRoute, path: '/settings', component: SettingsLayout });
const settingsIndexRoute = createRoute({ getParentRoute: () => settingsRoute, path: '/', component: SettingsIndexPage });
const profileRoute = createRoute({ getParentRoute: () => settingsRoute, path: '/profile', component: ProfilePage });
const whatsappRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/whatsapp',
  loader: ({ context }) => context.queryClient.ensureQueryData(whatsappAccountsQueryOptions(context.workspaceId)),
  component: WhatsappAccountsPage,
});
// Addition: the guide to connecting a real number, linked from the number settings.
const goingLiveRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/whatsapp/going-live',
  component: GoingLivePage,
});
const segmentsRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/segments',
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(segmentsQueryOptions(context.workspaceId)),
      context.queryClient.ensureQueryData(attributesQueryOptions(context.workspaceId)),
    ]),
  component: SegmentsPage,
});
const membersRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/members',
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(membersQueryOptions(context.workspaceId)),
      // Open invitations are for admins only (the server answers 403 to agents).
      context.me.role === 'admin' ? context.queryClient.ensureQueryData(inviteesQueryOptions(context.workspaceId)) : null,
    ]),
  component: MembersPage,
});
const attributesRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/attributes',
  loader: ({ context }) => context.queryClient.ensureQueryData(attributesQueryOptions(context.workspaceId)),
  component: AttributesPage,
});
// Addition: canned replies of the workspace and the member.
const cannedRepliesRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/canned-replies',
  loader: ({ context }) => context.queryClient.ensureQueryData(cannedRepliesQueryOptions(context.workspaceId)),
  component: CannedRepliesPage,
});
// Addition: the workspace's opt-out keywords, time zone and opt-out confirmation.
const campaignSettingsRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/campaigns',
  loader: ({ context }) => context.queryClient.ensureQueryData(campaignSettingsQueryOptions(context.workspaceId)),
  component: CampaignSettingsPage,
});
// Addition: the sender of the workspace's bot e-mails.
const botSettingsRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/bots',
  loader: ({ context }) => context.queryClient.ensureQueryData(botSettingsQueryOptions(context.workspaceId)),
  component: BotSettingsPage,
});

// Addition: the rate card campaigns are estimated with.
const rateCardRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/pricing',
  loader: ({ context }) => context.queryClient.ensureQueryData(rateCardQueryOptions(context.workspaceId)),
  component: RateCardPage,
});

export { safeRedirect };

export const routeTree = rootRoute.addChildren([
  indexRoute,
  inviteRoute,
  guestRoute.addChildren([loginRoute, signUpRoute, forgotPasswordRoute, verifyEmailRoute]),
  appRoute.addChildren([
    liveChatRoute,
    conversationRoute,
    audienceRoute,
    botsRoute,
    botRoute,
    campaignsRoute,
    campaignRoute,
    templatesRoute,
    createTemplateRoute,
    settingsRoute.addChildren([settingsIndexRoute, profileRoute, whatsappRoute, goingLiveRoute, segmentsRoute, membersRoute, attributesRoute, cannedRepliesRoute, campaignSettingsRoute, botSettingsRoute, rateCardRoute]),
  ]),
]);

/** Hash history inside the desktop app (file:// pages), browser history on the web. */
export function defaultHistory(): RouterHistory {
  return typeof window !== 'undefined' && window.desktop ? createHashHistory() : createBrowserHistory();
}

export function createAppRouter(opts: { queryClient: QueryClient; history?: RouterHistory }) {
  return createRouter({
    routeTree,
    history: opts.history ?? defaultHistory(),
    context: { queryClient: opts.queryClient },
    defaultPreload: 'intent',
    // Spec section 2: query data is treated as stale on preload; TanStack Query does the caching.
    defaultPreloadStaleTime: 0,
    defaultErrorComponent: ErrorScreen,
    defaultNotFoundComponent: NotFoundScreen,
    defaultPendingMs: 150,
    defaultPendingComponent: RoutePending,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
