import DescriptionIcon from '@mui/icons-material/Description';
import { Box, CircularProgress, Link, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type Identifier, useDataProvider, useTranslate } from 'react-admin';
import type { LeadFileField } from '../../../shared/schemas/leads';
import { formatBytes } from '../../forms/leadForm';
import type { AppDataProvider } from '../../providers/dataProvider';

export interface LeadFileInfo {
  mime: string;
  size: number;
  name?: string;
}

type Loaded = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; url: string };

/** An object URL for a blob while the view shows it, revoked when the blob changes or the view goes away. */
const useObjectUrl = (blob: Blob | undefined) => {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) return;
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => {
      URL.revokeObjectURL(made);
      setUrl(undefined);
    };
  }, [blob]);
  return url;
};

/**
 * A lead's file, which the server gives only to signed-in staff: fetched with the token as a blob (a react-query
 * query over the dataProvider) and shown through an object URL. An uploaded file never changes, so it is not
 * re-read while shown; a refusal shows at once rather than after retries; the blob is dropped when no view shows it.
 */
export const useLeadFile = (id: Identifier, field: LeadFileField): Loaded => {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data: blob, isError } = useQuery({
    queryKey: ['leads', 'file', { id: String(id), field }],
    queryFn: () => dataProvider.getLeadFile(id, field),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    gcTime: 0,
  });
  const url = useObjectUrl(blob);
  if (isError) return { status: 'failed' };
  return url ? { status: 'ready', url } : { status: 'loading' };
};

/** A file's format by its name ('PNG', 'PDF'), not its MIME type ('image/png'): the same in every language. */
const formatName = (mime: string) => (mime.split('/')[1] ?? mime).toUpperCase();

/** The applicant's picture, or the identity document (an image inline, a PDF as a link that opens it). */
export const LeadFile = ({
  id,
  field,
  info,
  applicant,
}: {
  id: Identifier;
  field: LeadFileField;
  info?: LeadFileInfo;
  applicant: string;
}) => {
  const translate = useTranslate();
  const loaded = useLeadFile(id, field);
  const name =
    field === 'picture' ? translate('app.leads.picture') : (info?.name ?? translate('app.leads.document'));
  const isImage = info?.mime?.startsWith('image/') ?? field === 'picture';
  return (
    <Box>
      <Typography component="h3" variant="subtitle2" sx={{ mb: 0.5 }}>
        {translate(field === 'picture' ? 'app.leads.picture' : 'app.leads.document')}
      </Typography>
      {loaded.status === 'loading' && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={16} />
          <Typography variant="body2">{translate('app.leads.fileLoading')}</Typography>
        </Stack>
      )}
      {loaded.status === 'failed' && (
        <Typography variant="body2" color="error" role="alert">
          {translate('app.leads.fileFailed')}
        </Typography>
      )}
      {loaded.status === 'ready' && (
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          {isImage ? (
            <Box
              component="img"
              src={loaded.url}
              alt={
                field === 'picture' ? translate('app.leads.pictureAlt', { name: applicant }) : String(name)
              }
              sx={
                field === 'picture'
                  ? {
                      width: 160,
                      height: 160,
                      objectFit: 'cover',
                      borderRadius: 1,
                      border: 1,
                      borderColor: 'divider',
                    }
                  : { maxWidth: 220, maxHeight: 220, borderRadius: 1, border: 1, borderColor: 'divider' }
              }
            />
          ) : (
            <DescriptionIcon color="action" fontSize="large" />
          )}
          {field === 'document' && (
            <Link href={loaded.url} target="_blank" rel="noopener" download={info?.name}>
              {translate('app.leads.openDocument', { name })}
            </Link>
          )}
          {info && (
            <Typography variant="caption" color="text.secondary">
              {[formatName(info.mime), formatBytes(info.size)].join(', ')}
            </Typography>
          )}
        </Stack>
      )}
    </Box>
  );
};
