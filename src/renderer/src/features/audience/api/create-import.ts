/**
 * The import: POST /import-history/upload (the CSV file) then POST /import-history (file, column mapping).
 * Both steps fail with the server's `status: message` (toasted by the mutation cache).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiBody } from '../../../lib/api-client';
import { api, apiUpload } from '../../../lib/api-client';
import { audienceKeys } from './keys';

export function useCreateImport(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, columnAttributeMap }: { file: File; columnAttributeMap: ApiBody<'createImport'>['columnAttributeMap'] }) => {
      const { fileUrl } = await apiUpload('uploadImportFile', { file, fileName: file.name });
      return api('createImport', { body: { fileName: file.name, fileUrl, workspaceId, columnAttributeMap } });
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: audienceKeys.imports(workspaceId) }),
  });
}
