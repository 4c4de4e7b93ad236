import { Notification } from 'react-admin';
import { TOAST_MS } from '../../shared/rules';
import { GlobalLoadingBar } from './GlobalLoadingBar';
import { HttpErrorToasts } from './HttpErrorToasts';
import { ScrollToTop } from './ScrollToTop';

/**
 * react-admin renders `<Admin notification>` once, outside every route, so this is the panel's
 * always-present chrome: the toast area (5000 ms), the loading bar, the httpClient error bridge and
 * scroll-to-top.
 */
export const AppNotification = () => (
  <>
    <ScrollToTop />
    <GlobalLoadingBar />
    <HttpErrorToasts />
    <Notification autoHideDuration={TOAST_MS} />
  </>
);
