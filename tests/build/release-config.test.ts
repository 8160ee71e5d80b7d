// The release configuration as shipped: fuses, entitlements, signing, feed and the release workflow
// (scripts/build/release-config.ts, also run by the release workflow before it builds anything).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { builderConfigProblems, readYaml, releaseWorkflowProblems, requiredFuses } from '../../scripts/build/release-config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const builder = () => readYaml(path.join(root, 'electron-builder.yml'));
const workflow = () => readYaml(path.join(root, '.github/workflows/release.yml'));

describe('electron-builder.yml', () => {
  it('flips every fuse the app relies on, signs, verifies updates and publishes a draft over https', () => {
    expect(builderConfigProblems(builder(), root)).toEqual([]);
  });

  it.each(Object.keys(requiredFuses))('fails when the fuse %s is missing', (fuse) => {
    const config = builder();
    delete (config.electronFuses as Record<string, unknown>)[fuse];
    expect(builderConfigProblems(config, root).join('\n')).toContain(`electronFuses.${fuse}`);
  });

  it('fails when the entitlements grant disable-library-validation, or when none are named', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-entitlements-'));
    const plist = fs.readFileSync(path.join(root, 'build/entitlements.mac.plist'), 'utf8');
    fs.writeFileSync(
      path.join(dir, 'e.plist'),
      plist.replace('</dict>', '<key>com.apple.security.cs.disable-library-validation</key><true/></dict>'),
    );
    const config = builder();
    (config.mac as Record<string, unknown>).entitlements = 'e.plist';
    (config.mac as Record<string, unknown>).entitlementsInherit = 'e.plist';
    expect(builderConfigProblems(config, dir)).toContain('e.plist grants com.apple.security.cs.disable-library-validation');
    delete (config.mac as Record<string, unknown>).entitlements;
    expect(builderConfigProblems(config, dir).join('\n')).toContain('mac.entitlements must name');
  });

  it('fails without forced code signing or a Windows publisher name, and on an http feed', () => {
    const config = builder();
    delete config.forceCodeSigning;
    delete (config.win as Record<string, unknown>).signtoolOptions;
    config.publish = [{ provider: 'generic', url: '${env.PARLEY_UPDATE_URL}' }];
    const problems = builderConfigProblems(config, root, { PARLEY_UPDATE_URL: 'http://updates.example.com' }).join('\n');
    expect(problems).toContain('forceCodeSigning');
    expect(problems).toContain('publisherName');
    expect(problems).toContain('must be https');
  });
});

describe('release workflow', () => {
  it('publishes only from a version tag, in a protected environment, actions pinned by commit, no cache', () => {
    expect(releaseWorkflowProblems(workflow())).toEqual([]);
  });

  it('fails on a manual trigger, a tag-pinned action or a dependency cache', () => {
    const text = stringify(workflow())
      .replace(/actions\/checkout@[0-9a-f]{40}/, 'actions/checkout@v4')
      .replace('node-version: 22', 'node-version: 22\n          cache: npm');
    const edited = readYamlText(text);
    (edited.on as Record<string, unknown>).workflow_dispatch = null;
    const problems = releaseWorkflowProblems(edited).join('\n');
    expect(problems).toContain('pushed version tag only');
    expect(problems).toContain('actions/checkout@v4 is not pinned');
    expect(problems).toContain('uses a cache');
  });
});

function readYamlText(text: string) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-wf-')), 'w.yml');
  fs.writeFileSync(file, text);
  return readYaml(file);
}
