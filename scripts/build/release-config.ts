// What a release build must be: the checks shared by tests/build/release-config.test.ts and the release
// workflow's first step (scripts/build/check-release.ts). Each answer is a list of problems, empty when fine.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

type Yaml = Record<string, unknown>;
const isObject = (v: unknown): v is Yaml => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every fuse the app relies on, with the value it must have (electron-builder `electronFuses`). */
export const requiredFuses = {
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  grantFileProtocolExtraPrivileges: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
} as const;

/** macOS entitlements that undo the hardened runtime's protection of the signed app. */
export const forbiddenEntitlements = [
  'com.apple.security.cs.disable-library-validation',
  'com.apple.security.cs.allow-dyld-environment-variables',
  'com.apple.security.cs.allow-unsigned-executable-memory',
  'com.apple.security.get-task-allow',
];

/** `${env.NAME}` placeholders as electron-builder expands them. */
const expandEnv = (value: string, env: NodeJS.ProcessEnv) => value.replace(/\$\{env\.([A-Z0-9_]+)\}/g, (_m, name: string) => env[name] ?? '');

export function builderConfigProblems(config: Yaml, root: string, env: NodeJS.ProcessEnv = {}): string[] {
  const problems: string[] = [];
  const fuses = isObject(config.electronFuses) ? config.electronFuses : {};
  for (const [fuse, wanted] of Object.entries(requiredFuses)) {
    if (fuses[fuse] !== wanted) problems.push(`electronFuses.${fuse} must be ${wanted} (is ${JSON.stringify(fuses[fuse])})`);
  }

  const mac = isObject(config.mac) ? config.mac : {};
  // Without an entitlements file electron-builder signs with its default one, which disables library validation.
  for (const key of ['entitlements', 'entitlementsInherit']) {
    const file = mac[key];
    if (typeof file !== 'string') {
      problems.push(`mac.${key} must name the app's minimal entitlements file (electron-builder's default grants disable-library-validation)`);
      continue;
    }
    const text = fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8').replace(/<!--[\s\S]*?-->/g, '') : null;
    if (text === null) problems.push(`mac.${key}: ${file} does not exist`);
    else for (const entitlement of forbiddenEntitlements) if (text.includes(entitlement)) problems.push(`${file} grants ${entitlement}`);
  }

  if (config.forceCodeSigning !== true) problems.push('forceCodeSigning must be true (no unsigned installer)');
  const win = isObject(config.win) ? config.win : {};
  const signtool = isObject(win.signtoolOptions) ? win.signtoolOptions : {};
  const names = ([] as unknown[]).concat(signtool.publisherName ?? []);
  if (!names.length || !names.every((n) => typeof n === 'string' && n.trim())) {
    problems.push('win.signtoolOptions.publisherName must be set (electron-updater skips the signature check without it)');
  }
  if (win.verifyUpdateCodeSignature === false) problems.push('win.verifyUpdateCodeSignature must not be false');

  const publish = ([] as unknown[]).concat(config.publish ?? []);
  const feed = publish[0];
  if (!isObject(feed)) problems.push('publish: the update feed (first entry) is missing');
  else if (feed.provider === 'github') {
    if (feed.releaseType !== 'draft') problems.push('publish: the GitHub release must be a draft (releaseType: draft)');
  } else if (feed.provider === 'generic') {
    const url = expandEnv(String(feed.url ?? ''), env);
    if (!/^https:\/\/[^/]/.test(url)) problems.push(`publish: the update feed must be https (is ${JSON.stringify(url)})`);
  } else problems.push(`publish: unexpected update provider ${JSON.stringify(feed.provider)}`);
  return problems;
}

export function releaseWorkflowProblems(workflow: Yaml): string[] {
  const problems: string[] = [];
  // `on` is read by YAML 1.2 as a string key; YAML 1.1 readers would make it `true`.
  const on = (workflow.on ?? (workflow as Record<string, unknown>)['true']) as unknown;
  const triggers = isObject(on) ? Object.keys(on) : ([] as string[]).concat((on as string) ?? []);
  if (triggers.length !== 1 || triggers[0] !== 'push') problems.push(`release: must run on a pushed version tag only (triggers: ${triggers.join(', ')})`);
  const push = isObject(on) && isObject(on.push) ? on.push : {};
  if (push.branches || !Array.isArray(push.tags) || !push.tags.every((t) => typeof t === 'string' && t.startsWith('v'))) {
    problems.push('release: push must be limited to version tags (v*)');
  }
  const jobs = isObject(workflow.jobs) ? workflow.jobs : {};
  for (const [name, job] of Object.entries(jobs)) {
    if (!isObject(job)) continue;
    if (typeof job.environment !== 'string' && !isObject(job.environment)) problems.push(`release: job ${name} must run in a protected environment`);
    for (const step of Array.isArray(job.steps) ? job.steps : []) {
      if (!isObject(step)) continue;
      if (typeof step.uses === 'string' && !/@[0-9a-f]{40}$/.test(step.uses)) problems.push(`release: ${step.uses} is not pinned by commit`);
      if (isObject(step.with) && 'cache' in step.with) problems.push(`release: ${String(step.uses)} uses a cache`);
      if (typeof step.uses === 'string' && step.uses.startsWith('actions/cache')) problems.push('release: no cache in the release job');
    }
  }
  return problems;
}

export function readYaml(file: string): Yaml {
  return parse(fs.readFileSync(file, 'utf8')) as Yaml;
}
