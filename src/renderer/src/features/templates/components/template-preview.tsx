import { ExternalLink, FileText, Image as ImageIcon, Phone, Reply, Video } from 'lucide-react';
import { type TemplateFormValues, fillVariables } from './template-form';

/** How the template will look in a customer's WhatsApp, examples filled in. */
export function TemplatePreview({ values, mediaPreview }: { values: TemplateFormValues; mediaPreview?: string | null }) {
  const body = fillVariables(values.body, values.bodyExamples);
  const headerText = fillVariables(values.headerText, [values.headerExample]);
  const MediaIcon = values.headerFormat === 'VIDEO' ? Video : values.headerFormat === 'DOCUMENT' ? FileText : ImageIcon;
  return (
    <div className="rounded-xl border border-border bg-chat-bg p-4" aria-label="Template preview" role="figure">
      <div className="mx-auto max-w-[320px]">
        <div className="relative rounded-lg rounded-tl-none bg-chat-bubble p-1 shadow-sm">
          <span
            aria-hidden
            className="absolute top-0 -left-2 h-3 w-2 bg-chat-bubble [clip-path:polygon(100%_0,0_0,100%_100%)]"
          />
          {values.headerFormat !== 'NONE' && values.headerFormat !== 'TEXT' && (
            <div className="mb-1 flex aspect-[1.9] items-center justify-center overflow-hidden rounded-md bg-muted text-fg-subtle">
              {mediaPreview && values.headerFormat === 'IMAGE' ? (
                <img src={mediaPreview} alt="Header sample" className="size-full object-cover" />
              ) : (
                <div className="flex flex-col items-center gap-1 text-xs">
                  <MediaIcon className="size-7" aria-hidden />
                  {values.mediaName || values.headerFormat.toLowerCase()}
                </div>
              )}
            </div>
          )}
          <div className="px-2 pt-1 pb-1.5">
            {values.headerFormat === 'TEXT' && headerText && (
              <p className="mb-1 text-[14px] font-semibold break-words text-fg">{headerText}</p>
            )}
            <p className="text-[13.5px] leading-snug break-words whitespace-pre-wrap text-fg">
              {body || <span className="text-fg-subtle">Your message body appears here.</span>}
            </p>
            {values.footer && <p className="mt-1 text-xs text-fg-subtle">{values.footer}</p>}
            <p className="mt-0.5 text-right text-[10px] text-fg-subtle">12:00</p>
          </div>
        </div>
        {values.buttons.length > 0 && (
          <div className="mt-1 flex flex-col gap-1">
            {values.buttons.map((b, i) => {
              const Icon = b.type === 'URL' ? ExternalLink : b.type === 'PHONE_NUMBER' ? Phone : Reply;
              return (
                <div
                  key={i}
                  className="flex h-9 items-center justify-center gap-1.5 rounded-lg bg-chat-bubble text-[13px] font-medium text-info-text shadow-sm"
                >
                  <Icon className="size-3.5" aria-hidden />
                  {b.text || 'Button'}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
