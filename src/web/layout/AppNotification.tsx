import { GlobalLoadingBar } from './GlobalLoadingBar';
import { Notification } from './Notification';
import { ScrollToTop } from './ScrollToTop';

/**
 * react-admin renders `<Admin notification>` once, outside every route, so this is the panel's always-present
 * chrome: the toast area, the loading bar and scroll-to-top.
 */
export const AppNotification = () => (
  <>
    <ScrollToTop />
    <GlobalLoadingBar />
    <Notification />
  </>
);
