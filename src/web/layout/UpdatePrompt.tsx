import { useSyncExternalStore } from 'react';
import { ApplicationUpdatedNotification } from 'react-admin';
import { isUpdateReady, reloadIntoUpdate, subscribeUpdate } from '../serviceWorker';

/**
 * Says that a new build of the panel is ready, above the page, with react-admin's own texts ('A new version is
 * available.', 'Reload Application'): the new build's worker waits until the person reloads, so a half-filled form is
 * never reloaded under them (docs/operations.md, "Installing the panel / offline"). A status in the page's flow, not
 * an alert: nothing is wrong.
 */
export const UpdatePrompt = () => {
  const ready = useSyncExternalStore(subscribeUpdate, isUpdateReady);
  if (!ready) return null;
  return (
    <ApplicationUpdatedNotification
      role="status"
      ButtonProps={{ onClick: () => void reloadIntoUpdate() }}
      sx={{ mt: 1, mx: { xs: 1, md: 2 } }}
    />
  );
};
