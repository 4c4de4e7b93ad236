import { Notification } from 'react-admin';
import { TOAST_MS } from '../../shared/rules';
import { HttpErrorToasts } from './HttpErrorToasts';
import { ScrollToTop } from './ScrollToTop';

/**
 * react-admin renders `<Admin notification>` once, outside every route, so this is the panel's
 * always-present chrome: the toast area (5000 ms), the httpClient error bridge and scroll-to-top.
 */
export const AppNotification = () => (
  <>
    <ScrollToTop />
    <HttpErrorToasts />
    <Notification autoHideDuration={TOAST_MS} />
  </>
);
