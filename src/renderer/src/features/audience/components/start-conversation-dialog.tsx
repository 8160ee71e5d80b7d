import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { Contact } from '@shared/schemas/entities';
import { FormDialog } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toastError } from '../../../lib/api-client';
import { useApprovedTemplates, useStartConversation, useWhatsappNumbers } from '../api/start-conversation';

const selectClass = 'h-9 w-full rounded-md border border-border bg-bg px-2.5 text-[13px] text-fg';

/** How many `{{n}}` (or named) placeholders a template body has, in order of appearance. */
function bodyVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([^}\s]+)\s*\}\}/g)].map((m) => m[1]))];
}

/**
 * Starts a conversation with a contact: a number, one of its APPROVED templates and the body's
 * variables; the server finds or opens the conversation, and live chat opens on it.
 */
export function StartConversationDialog({ contact, workspaceId, onClose }: { contact: Contact; workspaceId: string; onClose: () => void }) {
  const navigate = useNavigate();
  const numbers = useWhatsappNumbers(workspaceId);
  const templates = useApprovedTemplates(workspaceId);
  const start = useStartConversation();
  const [numberId, setNumberId] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [values, setValues] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const accountId = numberId || numbers.data?.[0]?.id || '';
  const ofNumber = (templates.data ?? []).filter((t) => t.whatsappAccountId === accountId);
  const template = ofNumber.find((t) => t.id === templateId);
  const body = template?.components.find((c) => c.type === 'BODY') as { text?: string } | undefined;
  const variables = bodyVariables(body?.text ?? '');

  return (
    <FormDialog
      title={`Start a conversation with ${contact.name || contact.phoneNumber}`}
      description="An approved template opens the conversation; the customer's answer opens the 24-hour window."
      className="max-w-lg"
      submitLabel="Send template"
      pending={start.isPending}
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        if (!template) return setError('Choose an approved template');
        if (variables.some((_, i) => !values[i]?.trim())) return setError('Fill in every variable');
        setError(null);
        start.mutate(
          { contactId: contact.id, body: { templateId: template.id, parameters: { body: variables.map((_, i) => values[i].trim()) } } },
          {
            onSuccess: (message) => {
              onClose();
              void navigate({ to: '/live-chat/$conversationId', params: { conversationId: message.conversationId } });
            },
            onError: (err) => toastError(err),
          },
        );
      }}
    >
      <FormField label="WhatsApp number">
        <select className={selectClass} value={accountId} onChange={(e) => (setNumberId(e.target.value), setTemplateId(''), setValues([]))}>
          {(numbers.data ?? []).map((n) => (
            <option key={n.id} value={n.id}>
              {n.phoneNumber}
            </option>
          ))}
        </select>
      </FormField>
      <FormField label="Template" hint={ofNumber.length === 0 && templates.isSuccess ? 'This number has no approved template yet' : undefined}>
        <select className={selectClass} value={template?.id ?? ''} onChange={(e) => (setTemplateId(e.target.value), setValues([]))}>
          <option value="">Choose an approved template</option>
          {ofNumber.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({t.language})
            </option>
          ))}
        </select>
      </FormField>
      {body?.text && <p className="rounded-md bg-bg-subtle p-2.5 text-[13px] whitespace-pre-wrap text-fg-muted">{body.text}</p>}
      {variables.map((v, i) => (
        <FormField key={v} label={`Variable {{${v}}}`}>
          <Input value={values[i] ?? ''} onChange={(e) => setValues((old) => Object.assign([...old], { [i]: e.target.value }))} />
        </FormField>
      ))}
      {error && (
        <p role="alert" className="text-[13px] text-danger">
          {error}
        </p>
      )}
    </FormDialog>
  );
}
