import { Alert, Button } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';

/**
 * A list that could not be loaded: says so and offers Retry, never 'No Data Found' (which would tell the user the
 * data is gone). The reason is in the error toast react-admin showed.
 */
export const ListError = () => {
  const translate = useTranslate();
  const { refetch, isFetching } = useListContext();
  return (
    <Alert
      severity="error"
      sx={{ m: 2 }}
      action={
        <Button color="inherit" size="small" disabled={isFetching} onClick={() => refetch()}>
          {translate('app.list.retry')}
        </Button>
      }
    >
      {translate('app.list.loadError')}
    </Alert>
  );
};
