import type { Session, TestApp } from './server';

/**
 * Lets a workspace send marketing templates to US numbers. Tests of the send path use US test numbers with
 * marketing templates; the skip, on by default because Meta refuses them, has tests of its own
 * (meta-consent-limits.test.ts, campaign-settings-schedule.test.ts).
 */
export async function allowUsMarketing(ta: TestApp, admin: Session): Promise<void> {
  const res = await ta.call('PATCH', `/workspace/${admin.workspaceId}/campaign-settings`, { token: admin.token, body: { skipUsMarketing: false } });
  if (res.statusCode !== 200) throw new Error(`the US skip could not be turned off: ${res.statusCode} ${res.body}`);
}
