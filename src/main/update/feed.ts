// The update feed an installed app reads (app-update.yml, written by electron-builder from electron-builder.yml
// `publish`): checked before electron-updater is started, so a build whose feed is not https never updates.
import { parse } from 'yaml';

export type FeedCheck = { ok: true; url: string } | { ok: false; reason: string };

/** Where electron-updater would fetch updates from, given app-update.yml's text; only https is accepted. */
export function checkUpdateFeed(appUpdateYml: string | null): FeedCheck {
  if (appUpdateYml === null) return { ok: false, reason: 'This build has no update feed' };
  let config: Record<string, unknown>;
  try {
    config = (parse(appUpdateYml) ?? {}) as Record<string, unknown>;
  } catch {
    return { ok: false, reason: 'The update feed configuration cannot be read' };
  }
  let url: string;
  if (config.provider === 'github') {
    const host = typeof config.host === 'string' ? config.host : 'github.com';
    const protocol = typeof config.protocol === 'string' ? config.protocol : 'https';
    url = `${protocol}://${host}/${String(config.owner)}/${String(config.repo)}`;
  } else if (config.provider === 'generic') {
    url = String(config.url ?? '');
  } else {
    return { ok: false, reason: `Unsupported update provider ${JSON.stringify(config.provider)}` };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'The update feed address is not valid' };
  }
  if (parsed.protocol !== 'https:') return { ok: false, reason: 'The update feed is not https: updates are off' };
  return { ok: true, url: parsed.href };
}
