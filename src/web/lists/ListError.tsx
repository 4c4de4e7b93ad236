import { Alert, Button, type SxProps } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';

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
