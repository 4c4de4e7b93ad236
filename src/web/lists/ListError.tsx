import { Alert, Button, CircularProgress, type SxProps } from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useListContext, useTranslate } from 'react-admin';
import { useNotifyError } from '../layout/useNotifyError';

/**
 * A read that failed: says so (`text`, a catalogue key) and offers Retry, never an empty state that would tell the
 * user the data is gone. The reason is in the error toast.
 */
export const LoadError = ({
  text,
  retry,
  busy,
  sx,
}: {
  text: string;
  retry: () => void;
  busy: boolean;
  sx?: SxProps;
}) => {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      sx={sx}
      action={
        <Button color="inherit" size="small" disabled={busy} onClick={retry}>
          {translate('app.list.retry')}
        </Button>
      }
    >
      {translate(text)}
    </Alert>
  );
};

/** A list that could not be loaded: LoadError over the list's own query, never 'No Data Found'. */
export const ListError = () => {
  const { refetch, isFetching } = useListContext();
  return (
    <LoadError text="app.list.loadError" retry={() => refetch()} busy={isFetching === true} sx={{ m: 2 }} />
  );
};

/**
 * A screen's own query as its user sees it: a spinner named `loading` while it loads, its failure toasted and
 * LoadError (`failed`) with Retry, then `children` of its data.
 */
export const QueryView = <T,>({
  query,
  loading,
  failed,
  children,
}: {
  query: UseQueryResult<T, Error>;
  loading: string;
  failed: string;
  children: (data: T) => ReactNode;
}) => {
  const translate = useTranslate();
  useNotifyError(query.error);
  if (query.isPending) return <CircularProgress size={24} aria-label={translate(loading)} />;
  if (query.isError) return <LoadError text={failed} retry={() => query.refetch()} busy={query.isFetching} />;
  return children(query.data);
};
