import { Copy, KeyRound, RefreshCw } from 'lucide-react';
import { toast } from 'sonner';
import { buildPath, routes } from '@shared/api/routes';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { apiBaseUrl } from '../../../lib/config';
import { useIsAdmin } from '../../../lib/queries/session';
import { useRotateTriggerKey } from '../api/rotate-trigger-key';
import { useCampaignEditor } from './editor-context';

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(`${what} copied`);
  } catch {
    toast.error(`Could not copy the ${what.toLowerCase()}: select it and copy it yourself`);
  }
}

/** The example call another system makes: one record per contact, keys as mapped. */
export function curlExample(url: string, key: string, objectKeys: string[]) {
  const record: Record<string, string> = { phoneNumber: '+14155550123' };
  for (const k of objectKeys) record[k] = `<${k}>`;
  return [
    `curl -X POST '${url}' \\`,
    `  -H 'Authorization: Bearer ${key}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${JSON.stringify([record])}'`,
  ].join('\n');
}

/**
 * The recurring trigger's URL, its key (shown once, right after deploy or rotation; afterwards only its last
 * characters) and a copyable curl example.
 */
export function TriggerAccess({ objectKeys }: { objectKeys: string[] }) {
  const { campaign, freshTriggerKey, setFreshTriggerKey } = useCampaignEditor();
  const isAdmin = useIsAdmin();
  const rotate = useRotateTriggerKey(campaign.id);
  const url = apiBaseUrl() + buildPath(routes.triggerOutbound.path, { campaignId: campaign.id });
  const keyForCurl = freshTriggerKey ?? '$PARLEY_TRIGGER_KEY';
  const curl = curlExample(url, keyForCurl, objectKeys);
  return (
    <section aria-label="Trigger URL and key" className="flex flex-col gap-2 rounded-md border border-border bg-subtle p-2">
      <div>
        <div className="text-xs font-medium text-fg">Trigger URL</div>
        <div className="mt-0.5 flex items-center gap-1">
          <code className="min-w-0 flex-1 truncate rounded bg-surface px-1.5 py-1 font-mono text-[11px]" title={url}>
            {url}
          </code>
          <Button variant="ghost" size="icon-sm" aria-label="Copy trigger URL" onClick={() => void copy(url, 'Trigger URL')}>
            <Copy />
          </Button>
        </div>
      </div>
      <div>
        <div className="flex items-center gap-1 text-xs font-medium text-fg">
          <KeyRound className="h-3.5 w-3.5" aria-hidden /> Trigger key
        </div>
        {freshTriggerKey ? (
          <div className="mt-0.5 flex flex-col gap-1">
            <div className="flex items-center gap-1">
              <code data-testid="trigger-key" className="min-w-0 flex-1 break-all rounded bg-surface px-1.5 py-1 font-mono text-[11px]">
                {freshTriggerKey}
              </code>
              <Button variant="ghost" size="icon-sm" aria-label="Copy trigger key" onClick={() => void copy(freshTriggerKey, 'Trigger key')}>
                <Copy />
              </Button>
            </div>
            <p className="text-[11px] text-warning-text">Copy it now: it is shown only once. Parley keeps only a hash of it.</p>
            <Button variant="link" size="sm" className="self-start text-[11px]" onClick={() => setFreshTriggerKey(null)}>
              I have stored it
            </Button>
          </div>
        ) : (
          <p className="mt-0.5 text-[11px] text-fg-muted">
            {campaign.triggerKeyHint ? `Key ending in …${campaign.triggerKeyHint}.` : 'A key is created when the campaign is deployed.'} Send it as{' '}
            <code>Authorization: Bearer</code> or <code>X-Parley-Key</code>.
          </p>
        )}
        {isAdmin && campaign.status !== 'draft' && (
          <ConfirmDialog
            title="Rotate the trigger key?"
            description="A new key is created and shown once; the current key stops working at once."
            confirmLabel="Rotate key"
            onConfirm={() =>
              rotate.mutateAsync().then((r) => setFreshTriggerKey(r.triggerKey))
            }
            trigger={
              <Button variant="secondary" size="sm" className="mt-1.5">
                <RefreshCw /> Rotate key
              </Button>
            }
          />
        )}
      </div>
      <div>
        <div className="flex items-center justify-between">
          <span className="text-xs font-medium text-fg">Example call</span>
          <Button variant="ghost" size="sm" onClick={() => void copy(curl, 'curl command')}>
            <Copy /> Copy curl
          </Button>
        </div>
        <pre className="mt-0.5 max-h-32 overflow-auto rounded bg-surface p-1.5 font-mono text-[10.5px] leading-snug whitespace-pre-wrap break-all">{curl}</pre>
      </div>
    </section>
  );
}
