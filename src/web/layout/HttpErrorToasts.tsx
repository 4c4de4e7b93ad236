import { Alert, AlertTitle } from '@mui/material';
import { useEffect } from 'react';
import { useNotify } from 'react-admin';
import { MSG } from '../../shared/messages';
import { TOAST_MS } from '../../shared/rules';
import { toastBus } from '../providers/toastBus';

/** The red toast of seed section 8: title 'Error!!!' and the normalised message. */
export const ErrorToastContent = ({ message }: { message: string }) => (
  <Alert severity="error" variant="filled" role="alert" sx={{ minWidth: 300 }}>
    <AlertTitle>{MSG.errorTitle}</AlertTitle>
    {message}
  </Alert>
);

/** Hook for screens that want the same red toast for a message of their own. */
export const useErrorToast = () => {
  const notify = useNotify();
  return (message: string) =>
    notify(<ErrorToastContent message={message} />, { type: 'error', autoHideDuration: TOAST_MS });
};

/** Bridges httpClient's failures (toastBus) into react-admin notifications. Mounted once, globally. */
export const HttpErrorToasts = () => {
  const notify = useNotify();
  useEffect(
    () =>
      toastBus.subscribe(({ message }) =>
        notify(<ErrorToastContent message={message} />, { type: 'error', autoHideDuration: TOAST_MS }),
      ),
    [notify],
  );
  return null;
};
