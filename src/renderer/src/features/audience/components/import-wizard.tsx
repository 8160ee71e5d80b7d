import { useCallback, useMemo, useState } from 'react';
import type { Attribute } from '@shared/schemas/entities';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { plural } from '../../../lib/format';
import { useCreateImport } from '../api/create-import';
import { useImportProgress } from '../hooks/use-import-progress';
import { type ColumnMapping, guessMapping, mappingErrors, toColumnAttributeMap } from '../utils/column-mapping';
import { type CsvPreview, readCsvPreview } from '../utils/csv-preview';
import { ColumnMapper, ImportFileStep, ImportOutcome, ProgressBar } from './import-steps';

type Step = 'file' | 'map' | 'running' | 'done';

/**
 * Import wizard: pick a CSV, check the preview (first rows, parsed in the browser), map the columns, import,
 * watch the progress (from the event stream), see the outcome with a link to the rejected rows.
 */
export function ImportWizard({
  workspaceId,
  attributes,
  onClose,
  onFinished,
}: {
  workspaceId: string;
  attributes: Attribute[];
  onClose: () => void;
  onFinished?: () => void;
}) {
  const [step, setStep] = useState<Step>('file');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [showErrors, setShowErrors] = useState(false);
  const create = useCreateImport(workspaceId);
  const contactAttributes = attributes.filter((a) => a.type === 'contact');
  const errors = useMemo(() => (preview ? mappingErrors(preview.columns, mapping) : []), [preview, mapping]);
  const toDone = useCallback(() => setStep('done'), []);
  const { progress, setProgress } = useImportProgress({ workspaceId, running: step === 'running', onEnded: toDone, onFinished });

  const pick = async (f: File | undefined) => {
    setReadError(null);
    if (!f) return;
    try {
      const p = await readCsvPreview(f);
      if (p.columns.length === 0) throw new Error('The file has no header row');
      setFile(f);
      setPreview(p);
      setMapping(guessMapping(p.columns, contactAttributes.map((a) => a.name)));
      setShowErrors(false);
      setStep('map');
    } catch (err) {
      setReadError(`This file could not be read as CSV: ${(err as Error).message}`);
    }
  };

  const start = async () => {
    setShowErrors(true);
    if (!file || !preview || errors.length) return;
    try {
      const history = await create.mutateAsync({ file, columnAttributeMap: toColumnAttributeMap(preview.columns, mapping) });
      setProgress({ importHistory: history, processed: history.processedRows ?? 0, total: 0 });
      setStep(history.status === 'pending' ? 'running' : 'done');
    } catch {
      // Toasted (`status: message`); the user can fix the mapping or file and try again.
    }
  };

  const h = progress?.importHistory;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title="Import contacts"
        description={
          step === 'file'
            ? 'Upload a CSV file with a header row. Each row becomes a contact, matched by WhatsApp user ID, else by phone number.'
            : step === 'map'
              ? `${file?.name}: map each column. The preview shows the first ${plural(preview?.rows.length ?? 0, 'row')}.`
              : file?.name
        }
        className="max-w-4xl"
        footer={
          step === 'map' ? (
            <>
              <Button variant="secondary" onClick={() => setStep('file')}>
                Back
              </Button>
              <Button onClick={() => void start()} loading={create.isPending}>
                Import
              </Button>
            </>
          ) : step === 'done' ? (
            <Button onClick={onClose}>Done</Button>
          ) : step === 'running' ? (
            <Button variant="secondary" onClick={onClose}>
              Continue in background
            </Button>
          ) : undefined
        }
      >
        {step === 'file' && <ImportFileStep onPick={(f) => void pick(f)} readError={readError} />}
        {step === 'map' && preview && (
          <div className="flex flex-col gap-3">
            <ColumnMapper preview={preview} attributes={contactAttributes} mapping={mapping} onChange={setMapping} />
            {showErrors && errors.length > 0 && (
              <ul role="alert" className="flex flex-col gap-1 rounded-md bg-danger-soft px-3 py-2 text-[13px] text-danger">
                {errors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {step === 'running' && progress && (
          <div className="flex flex-col gap-3 py-2">
            <p className="text-[13px] text-fg">Importing contacts… you can close this window, the import continues.</p>
            <ProgressBar value={progress.processed} total={progress.total} />
          </div>
        )}
        {step === 'done' && h && <ImportOutcome h={h} />}
      </DialogContent>
    </Dialog>
  );
}
