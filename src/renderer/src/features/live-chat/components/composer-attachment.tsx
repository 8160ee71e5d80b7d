/** The composer's file: the button that picks it and its preview before sending (image, video, audio or a document card). */
import { FileText, Music, Paperclip, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { chatMediaKindOf, chatMediaMimeTypes } from '@shared/chat-media';
import { Button } from '../../../components/ui/button';

const size = (n: number) => (n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

export function AttachmentPreview({ file, problem, onRemove }: { file: File; problem: string | null; onRemove: () => void }) {
  const kind = chatMediaKindOf(file.type);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (kind !== 'image' && kind !== 'video' && kind !== 'audio') return;
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file, kind]);

  return (
    <div className="mb-2 flex items-start gap-3 rounded-lg border border-border bg-bg p-2" data-testid="attachment-preview">
      <div className="shrink-0">
        {kind === 'image' && url ? (
          <img src={url} alt={`Preview of ${file.name}`} className="size-20 rounded-md object-cover" />
        ) : kind === 'video' && url ? (
          <video src={url} className="h-20 w-28 rounded-md bg-black" aria-label={`Preview of ${file.name}`} muted />
        ) : (
          <span className="flex size-12 items-center justify-center rounded-md bg-subtle text-fg-muted">
            {kind === 'audio' ? <Music className="size-5" aria-hidden /> : <FileText className="size-5" aria-hidden />}
          </span>
        )}
      </div>
      <div className="min-w-0 flex-1">
        <p className="truncate text-[13px] font-medium text-fg">{file.name}</p>
        <p className="text-[12px] text-fg-muted">
          {kind ? `${kind[0].toUpperCase()}${kind.slice(1)}` : file.type || 'Unknown type'} · {size(file.size)}
        </p>
        {kind === 'audio' && url && <audio src={url} controls className="mt-1 h-8 max-w-full" aria-label={`Listen to ${file.name}`} />}
        {problem ? (
          <p role="alert" className="mt-1 text-[12px] text-danger">
            {problem}
          </p>
        ) : (
          <p className="mt-1 text-[12px] text-fg-subtle">
            {kind === 'audio' ? 'What you type is sent as its own message after the audio.' : 'What you type below is sent as its caption.'}
          </p>
        )}
      </div>
      <Button type="button" variant="ghost" size="icon" onClick={onRemove} aria-label={`Remove ${file.name}`}>
        <X aria-hidden />
      </Button>
    </div>
  );
}

/** The paperclip: opens the file picker (its input stays hidden and out of the tab order). */
export function AttachButton({ disabled, onFile }: { disabled: boolean; onFile: (file: File | undefined) => void }) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={fileInput}
        type="file"
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        accept={chatMediaMimeTypes.join(',')}
        data-testid="composer-file-input"
        onChange={(e) => {
          onFile(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <Button type="button" variant="ghost" size="icon" aria-label="Attach a file" title="Attach a photo, video, audio file or document" disabled={disabled} onClick={() => fileInput.current?.click()}>
        <Paperclip aria-hidden />
      </Button>
    </>
  );
}
