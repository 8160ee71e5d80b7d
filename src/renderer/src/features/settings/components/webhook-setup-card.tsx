import { Check, CircleAlert, Copy, RefreshCw } from 'lucide-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { publicCallbackProblem } from '@shared/public-url';
import { formatDate } from '../../../lib/format';
import { useWebhookSetup } from '../api/get-webhook-setup';

function CopyField({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      toast.error('Could not copy: select the text and copy it by hand');
    }
  };
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <span className="text-[12px] font-medium text-fg-muted">{label}</span>
      <div className="flex min-w-0 items-center gap-2">
        <code className="min-w-0 flex-1 truncate rounded-md border border-border bg-bg px-2.5 py-1.5 font-mono text-[12.5px] text-fg select-all" title={value}>
          {value}
        </code>
        <Button variant="secondary" size="sm" onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`}>
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />} {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  );
}

const goingLive = (
  <>
    To connect a real number, follow{' '}
    <Link to="/settings/whatsapp/going-live" className="font-medium text-accent underline">
      Connect a real WhatsApp number
    </Link>
    .
  </>
);

/** Meta delivers webhooks only to a public HTTPS address; a local or plain-HTTP callback can never verify. */
function CallbackWarning({ callbackUrl }: { callbackUrl: string }) {
  const problem = publicCallbackProblem(callbackUrl);
  if (!problem) return null;
  return (
    <p className="flex items-start gap-1.5 text-[13px] text-warning-text">
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>
        Meta cannot reach this callback URL. {problem} Set <code className="font-mono text-[12.5px]">PUBLIC_URL</code> to the server&apos;s public
        HTTPS address (to try it out, a tunnel such as cloudflared or ngrok gives one). {goingLive}
      </span>
    </p>
  );
}

/**
 * What to enter in Meta's app dashboard (WhatsApp > Configuration > Webhook), copyable, and whether Meta's
 * verification call has reached this server: the admin sees at once when the address or the token is wrong.
 */
export function WebhookSetupCard({ workspaceId }: { workspaceId: string }) {
  const setup = useWebhookSetup(workspaceId, true);
  const data = setup.data;
  return (
    <Card className="mt-6">
      <CardHeader
        title="Webhook for Meta"
        description="In your Meta app: WhatsApp › Configuration › Webhook. Enter these, press Verify and save, then subscribe to the messages and message_template_status_update fields."
        actions={
          <Button variant="ghost" size="sm" onClick={() => void setup.refetch()} loading={setup.isFetching}>
            <RefreshCw aria-hidden /> Check again
          </Button>
        }
      />
      <div className="flex flex-col gap-4 px-5 py-4">
        {data ? (
          <>
            <div className="grid gap-4 lg:grid-cols-2">
              <CopyField label="Callback URL" value={data.callbackUrl} />
              {data.verifyToken ? (
                <CopyField label="Verify token" value={data.verifyToken} />
              ) : (
                <p className="text-[13px] text-danger">This server has no WHATSAPP_VERIFY_TOKEN: Meta's verification cannot pass until it is set.</p>
              )}
            </div>
            <CallbackWarning callbackUrl={data.callbackUrl} />
            {data.graphApi.sandbox && (
              <p className="text-[13px] text-fg-muted">
                <Badge tone="blue">Sandbox</Badge> This server checks numbers against the local WhatsApp sandbox at{' '}
                <code className="font-mono text-[12.5px]">{data.graphApi.url}</code>, not Meta: only the sandbox's own numbers connect, and
                nothing reaches real customers. {goingLive}
              </p>
            )}
            <p role="status" className={data.lastVerifiedAt ? 'inline-flex items-center gap-1.5 text-[13px] text-accent-text' : 'inline-flex items-center gap-1.5 text-[13px] text-warning-text'}>
              {data.lastVerifiedAt ? <Check className="size-4" aria-hidden /> : <CircleAlert className="size-4" aria-hidden />}
              {data.lastVerifiedAt
                ? `Meta's verification reached this server on ${formatDate(data.lastVerifiedAt)}.`
                : "Meta's verification call has not reached this server yet."}
              {!data.appSecretConfigured && ' Deliveries are refused until WHATSAPP_APP_SECRET is set.'}
            </p>
          </>
        ) : (
          <p className="text-[13px] text-fg-muted">{setup.isError ? 'The webhook settings could not be loaded.' : 'Loading…'}</p>
        )}
      </div>
    </Card>
  );
}
