import { LayoutTemplate, SendHorizontal } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { WhatsappTemplate } from '@shared/schemas/entities';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-client';
import { useApprovedTemplates } from '../../../lib/queries/templates';
import { useSendTemplateMessage } from '../api/send-template-message';
import { fillTemplateText, templateParts } from '../utils/template-params';

/** Picks an approved template, fills its variables and sends it (outside the 24-hour window). */
export function TemplateSender({ conversationId, workspaceId, onSent }: { conversationId: string; workspaceId: string; onSent?: () => void }) {
  const templates = useApprovedTemplates(workspaceId);
  const [templateId, setTemplateId] = useState<string>('');
  const [values, setValues] = useState<Record<string, string>>({});
  const send = useSendTemplateMessage(conversationId);
  const template: WhatsappTemplate | undefined = templates.data?.find((t) => t.id === templateId);
  const parts = useMemo(() => (template ? templateParts(template) : null), [template]);
  // WhatsApp allows one variable in a text header.
  const headerVar = parts?.headerVariables[0];
  const keys = [...(headerVar ? [`header:${headerVar}`] : []), ...(parts?.bodyVariables.map((v) => `body:${v}`) ?? [])];
  const missing = keys.filter((k) => !values[k]?.trim());

  const scoped = (prefix: string) =>
    Object.fromEntries(Object.entries(values).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]));

  if (templates.isPending) {
    return (
      <div className="flex items-center gap-2 px-4 py-3 text-[13px] text-fg-muted">
        <Spinner /> Loading templates…
      </div>
    );
  }
  if (templates.isError) {
    return <p className="px-4 py-3 text-[13px] text-danger">Templates could not be loaded: {errorText(templates.error)}</p>;
  }
  if (!templates.data.length) {
    return (
      <p className="px-4 py-3 text-[13px] text-fg-muted">
        No approved template yet. An admin can create one under Templates; WhatsApp reviews it before it can be sent.
      </p>
    );
  }

  return (
    <form
      className="flex flex-col gap-3 px-4 py-3"
      aria-label="Send a template"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!template || missing.length) return;
        try {
          await send.mutateAsync({
            templateId: template.id,
            body: parts!.bodyVariables.map((v) => values[`body:${v}`].trim()),
            headerText: headerVar ? values[`header:${headerVar}`].trim() : undefined,
          });
          setValues({});
          onSent?.();
        } catch {
          // Toasted by the mutation cache (`status: message`).
        }
      }}
    >
      <div className="flex items-center gap-2">
        <LayoutTemplate className="size-4 shrink-0 text-fg-muted" aria-hidden />
        <Select
          aria-label="Template"
          placeholder="Choose an approved template"
          value={templateId}
          onValueChange={(v) => {
            setTemplateId(v);
            setValues({});
          }}
          options={templates.data.map((t) => ({ value: t.id, label: `${t.name} · ${t.language}` }))}
          className="max-w-sm"
        />
      </div>
      {template && parts && (
        <div className="grid gap-3 lg:grid-cols-[minmax(12rem,1fr)_minmax(0,16rem)]">
          <div className="flex flex-col gap-2">
            {keys.map((k) => {
              const [where, v] = k.split(':');
              return (
                <label key={k} className="flex items-center gap-2 text-[13px]">
                  <span className="w-24 shrink-0 text-fg-muted">
                    {where === 'header' ? 'Header' : 'Body'} {`{{${v}}}`}
                  </span>
                  <Input
                    value={values[k] ?? ''}
                    onChange={(e) => setValues((s) => ({ ...s, [k]: e.target.value }))}
                    placeholder={where === 'header' ? `Header value for {{${v}}}` : `Value for {{${v}}}`}
                    required
                  />
                </label>
              );
            })}
            {keys.length === 0 && (
              <p className="text-[13px] text-fg-muted">This template has no variables.</p>
            )}
          </div>
          <div className="rounded-lg bg-chat-bg p-3" aria-label="Preview">
            <div className="rounded-lg rounded-tr-sm bg-[#d9fdd3] px-2.5 py-1.5 text-[13px] text-fg shadow-sm dark:bg-[#005c4b]">
              {parts.header && <p className="font-semibold">{fillTemplateText(parts.header, scoped('header:'))}</p>}
              {parts.headerFormat && parts.headerFormat !== 'TEXT' && (
                <p className="text-[12px] text-fg-subtle">[{parts.headerFormat.toLowerCase()} header]</p>
              )}
              <p className="whitespace-pre-wrap">{fillTemplateText(parts.body, scoped('body:'))}</p>
              {parts.footer && <p className="mt-1 text-[12px] text-fg-subtle">{parts.footer}</p>}
            </div>
            {parts.buttons.map((b) => (
              <div key={b} className="mt-1 rounded-md bg-surface py-1.5 text-center text-[12px] font-medium text-info-text">
                {b}
              </div>
            ))}
          </div>
        </div>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={!template || missing.length > 0} loading={send.isPending}>
          <SendHorizontal aria-hidden />
          Send template
        </Button>
      </div>
    </form>
  );
}
