import { useEffect } from 'react';
import { useNotify } from 'react-admin';

/** The notice the panel shows as it starts: 'Logged in successfully' when the sign-in entry hands it the page. */
let pending: string | undefined;

export const setStartNotice = (message: string | undefined) => {
  pending = message;
};

/** Shows the start notice once, in the panel's toast area (rendered with it, AppNotification). */
export const StartNotice = () => {
  const notify = useNotify();
  useEffect(() => {
    if (!pending) return;
    notify(pending, { type: 'success' });
    pending = undefined;
  }, [notify]);
  return null;
};
