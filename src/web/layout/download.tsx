import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { CircularProgress, IconButton, Tooltip } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import type { AppDataProvider } from '../providers/dataProvider';
import { saveFile } from './saveFile';

/** A file of the API to save: its path, query and the name it is saved under. */
export interface Download {
  path: string;
  query: Record<string, string>;
  name: string;
}

/** Downloads a file of the API (dataProvider.getFile) and saves it; a refusal is toasted. */
export const useDownload = () => {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  return useMutation({
    mutationFn: async ({ path, query, name }: Download) =>
      saveFile(await dataProvider.getFile(path, query), name),
    onError: (error) => notify(error.message, { type: 'error' }),
  });
};

/** A row's PDF (a certificate): an icon button named `label` (already translated), spinning while it downloads. */
export const PdfButton = ({
  label,
  busy,
  onClick,
}: {
  label: string;
  busy: boolean;
  onClick: () => void;
}) => (
  <Tooltip title={label}>
    {/* A disabled button fires no events: the span keeps the tooltip. */}
    <span>
      <IconButton aria-label={label} disabled={busy} onClick={onClick}>
        {busy ? <CircularProgress size={20} /> : <PictureAsPdfIcon />}
      </IconButton>
    </span>
  </Tooltip>
);
