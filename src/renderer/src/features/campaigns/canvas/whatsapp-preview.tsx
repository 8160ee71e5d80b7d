import { FileText, Image, Link2, Video } from 'lucide-react';
import type { TemplateComponent } from '@shared/schemas/entities';
import { fillTemplateVariables } from '@shared/template-variables';

const mediaIcon = { IMAGE: Image, VIDEO: Video, DOCUMENT: FileText } as const;

/**
 * A template as the customer will see it in WhatsApp, with each variable replaced by what fills it
 * (`values`: component -> variable -> shown text, e.g. "‹name›" for a contact field).
 */
export function WhatsappPreview({
  components,
  values,
}: {
  components: readonly TemplateComponent[];
  values: { HEADER: Record<string, string>; BODY: Record<string, string> };
}) {
  const header = components.find((c) => c.type === 'HEADER');
  const body = components.find((c) => c.type === 'BODY');
  const footer = components.find((c) => c.type === 'FOOTER');
  const buttons = components.find((c) => c.type === 'BUTTONS');
  const Media = header && header.format in mediaIcon ? mediaIcon[header.format as keyof typeof mediaIcon] : null;
  return (
    <figure aria-label="WhatsApp preview" className="rounded-lg bg-chat-bg p-2">
      <div className="max-w-full rounded-lg rounded-tl-none bg-chat-bubble px-2.5 py-2 text-[12.5px] leading-snug text-fg shadow-xs">
        {Media && (
          <div className="mb-1.5 flex h-16 items-center justify-center rounded bg-muted text-fg-subtle">
            <Media className="h-5 w-5" aria-label={`${header!.format.toLowerCase()} header`} />
          </div>
        )}
        {header?.format === 'TEXT' && header.text && <p className="mb-1 font-semibold">{fillTemplateVariables(header.text, values.HEADER)}</p>}
        {body && 'text' in body && <p className="whitespace-pre-wrap break-words">{fillTemplateVariables(body.text ?? '', values.BODY)}</p>}
        {footer && 'text' in footer && footer.text && <p className="mt-1 text-[11px] text-fg-subtle">{footer.text}</p>}
      </div>
      {buttons && 'buttons' in buttons && buttons.buttons.length > 0 && (
        <div className="mt-1 flex flex-col gap-1">
          {buttons.buttons.map((b, i) => (
            <div key={i} className="flex items-center justify-center gap-1 rounded-lg bg-chat-bubble py-1 text-[12px] font-medium text-info-text shadow-xs">
              {b.type === 'URL' && <Link2 className="h-3 w-3" aria-hidden />}
              {b.text}
            </div>
          ))}
        </div>
      )}
    </figure>
  );
}
