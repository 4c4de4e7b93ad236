import { Alert, AlertTitle, Portal, Snackbar } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { type NotificationPayload, useNotificationContext, useTranslate } from 'react-admin';
import { TOAST_MS } from '../../shared/rules';
import { localise } from '../i18n/sharedMessages';

const SEVERITY = { success: 'success', error: 'error', warning: 'warning', info: 'info' } as const;

/** The seed's normalised HTTP failure ('Error: ...', 'Error Code: ...', section 8): these get the 'Error!!!' title. */
const isHttpFailure = (message: unknown) => typeof message === 'string' && /^Error( Code)?:/.test(message);

const sameMessage = (a: NotificationPayload, b: NotificationPayload) =>
  a.type === b.type &&
  a.message === b.message &&
  JSON.stringify(a.notificationOptions?.messageArgs) === JSON.stringify(b.notificationOptions?.messageArgs);

/**
 * The panel's only toast area, fed by react-admin's `useNotify` (screens, and react-admin itself when a query
 * fails). Seed section 8: a failed call shows a red toast titled 'Error!!!' with the normalised message; other
 * notices show their text alone (status 0 shows 'Internet connection error'). One at a time, each for TOAST_MS; notices
 * given together take turns, a later one replaces the one on screen (MUI's consecutive snackbars), and a notice
 * equal to the one on screen is not shown twice. At the top, so a toast never covers a dialog's buttons; in a
 * portal of its own, so a toast that appears while a dialog is open is not inside the part of the page the dialog
 * hides from screen readers (aria-hidden), and is announced.
 */
export const Notification = () => {
  const { notifications, takeNotification } = useNotificationContext();
  const translate = useTranslate();
  const [current, setCurrent] = useState<NotificationPayload>();
  const [open, setOpen] = useState(false);
  // Each notice shown gets its own Snackbar (a new key), so a replacing notice gets its full time on screen.
  const [shown, setShown] = useState(0);
  // The notices given together with the one on screen (a password change's "updated", then "sign in again").
  const together = useRef<NotificationPayload[]>([]);

  useEffect(() => {
    const next = notifications[0];
    if (!next) return;
    if (current && open && sameMessage(next, current)) {
      takeNotification();
      return;
    }
    // Given together with the one on screen: it waits its turn.
    if (current && together.current.includes(next)) return;
    // A later notice replaces the one on screen at once: the answer to the call just made is the one shown, not
    // queued behind the previous call's.
    together.current = notifications.slice(1);
    setCurrent(takeNotification() ?? undefined);
    setShown((n) => n + 1);
    setOpen(true);
  }, [notifications, current, open, takeNotification]);

  if (!current) return null;
  const { message, type = 'info', notificationOptions = {} } = current;
  const { autoHideDuration, messageArgs } = notificationOptions;
  const text = typeof message === 'string' ? localise(message, translate, messageArgs) : message;
  return (
    <Portal>
      <Snackbar
        key={shown}
        open={open}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
        autoHideDuration={autoHideDuration === undefined ? TOAST_MS : (autoHideDuration ?? undefined)}
        onClose={(_, reason) => {
          if (reason !== 'clickaway') setOpen(false);
        }}
        slotProps={{ transition: { onExited: () => setCurrent(undefined) } }}
      >
        <Alert
          severity={SEVERITY[type as keyof typeof SEVERITY] ?? 'info'}
          variant="filled"
          onClose={() => setOpen(false)}
          closeText={translate('ra.action.close')}
          sx={{ minWidth: { sm: 320 }, maxWidth: 560, whiteSpace: 'pre-line' }}
        >
          {type === 'error' && isHttpFailure(message) && (
            <AlertTitle>{translate('app.notification.errorTitle')}</AlertTitle>
          )}
          {text}
        </Alert>
      </Snackbar>
    </Portal>
  );
};
