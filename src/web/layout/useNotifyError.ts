import { useEffect } from 'react';
import { useNotify } from 'react-admin';

/**
 * A failed query of a screen's own (react-admin's list does this by itself): its normalised message in the error
 * toast, once per failure. The screen shows its error state beside it.
 */
export const useNotifyError = (error: Error | null | undefined) => {
  const notify = useNotify();
  useEffect(() => {
    if (error) notify(error.message, { type: 'error' });
  }, [error, notify]);
};
