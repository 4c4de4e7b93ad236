import ImportExportIcon from '@mui/icons-material/ImportExport';
import { useMutation } from '@tanstack/react-query';
import { Button, useDataProvider, useTranslate } from 'react-admin';
import type { ImportKind } from '../../shared/schemas/imports';
import { saveFile } from '../layout/saveFile';
import { useNotifyError } from '../layout/useNotifyError';
import type { AppDataProvider } from '../providers/dataProvider';

/**
 * "Export for import" (issue 45's round trip): the server's file of the whole list, as the kind's import template
 * has it (`GET import/export/<kind>`), ready to import into another Tierdesk. The list's own Export stays the list
 * as read (headers in the chosen language, names title-cased, its first 1,000 rows). On a phone both are icons: a
 * round trip's arrows, not Export's download icon, and each its own name, disabled or not.
 */
export const ImportFileExport = ({ kind }: { kind: ImportKind }) => {
  const dataProvider = useDataProvider<AppDataProvider>();
  const translate = useTranslate();
  const download = useMutation({
    mutationFn: () => dataProvider.getFile(`import/export/${kind}`, {}),
    onSuccess: (blob) => saveFile(blob, `${kind}.csv`),
  });
  useNotifyError(download.error);
  return (
    <Button
      label="app.list.exportForImport"
      aria-label={translate('app.list.exportForImport')}
      onClick={() => download.mutate()}
      disabled={download.isPending}
    >
      <ImportExportIcon />
    </Button>
  );
};
