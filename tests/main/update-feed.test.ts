// The installed app refuses an update feed that is not https (src/main/update/feed.ts, checked in
// src/main/index.ts before electron-updater starts).
import { describe, expect, it } from 'vitest';
import { checkUpdateFeed } from '../../src/main/update/feed';

describe('update feed check', () => {
  it('accepts the GitHub release feed electron-builder writes', () => {
    expect(checkUpdateFeed('owner: parley\nrepo: parley\nprovider: github\npublisherName:\n  - Parley\nupdaterCacheDirName: parley-updater\n')).toEqual({
      ok: true,
      url: 'https://github.com/parley/parley',
    });
  });

  it('accepts an https generic feed and refuses an http one', () => {
    expect(checkUpdateFeed('provider: generic\nurl: https://updates.parley.app/desktop\n')).toMatchObject({ ok: true });
    expect(checkUpdateFeed('provider: generic\nurl: http://updates.parley.app/desktop\n')).toEqual({ ok: false, reason: 'The update feed is not https: updates are off' });
  });

  it('refuses a GitHub Enterprise feed over http, a missing file and an unknown provider', () => {
    expect(checkUpdateFeed('provider: github\nowner: a\nrepo: b\nhost: git.corp\nprotocol: http\n').ok).toBe(false);
    expect(checkUpdateFeed(null).ok).toBe(false);
    expect(checkUpdateFeed('provider: s3\nbucket: x\n').ok).toBe(false);
    expect(checkUpdateFeed('provider: generic\nurl: ${env.PARLEY_UPDATE_URL}\n').ok).toBe(false);
  });
});
