import DownloadIcon from '@mui/icons-material/Download';
import { useMutation } from '@tanstack/react-query';
import { Button, useDataProvider } from 'react-admin';
import type { ImportKind } from '../../shared/schemas/imports';
import { saveFile } from '../layout/saveFile';
import { useNotifyError } from '../layout/useNotifyError';
import type { AppDataProvider } from '../providers/dataProvider';

/**
 * "Export for import" (issue 45's round trip): the server's file of the whole list, as the kind's import template
 * has it (`GET import/export/<kind>`), ready to import into another Tierdesk. The list's own Export stays the list
 * as read (headers in the chosen language, names title-cased, its first 1,000 rows).
 */
export const ImportFileExport = ({ kind }: { kind: ImportKind }) => {
  const dataProvider = useDataProvider<AppDataProvider>();
  const download = useMutation({
    mutationFn: () => dataProvider.getFile(`import/export/${kind}`, {}),
    onSuccess: (blob) => saveFile(blob, `${kind}.csv`),
  });
  useNotifyError(download.error);
  return (
    <Button label="app.list.exportForImport" onClick={() => download.mutate()} disabled={download.isPending}>
      <DownloadIcon />
    </Button>
  );
};
