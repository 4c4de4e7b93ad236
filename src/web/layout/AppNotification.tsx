import { GlobalLoadingBar } from './GlobalLoadingBar';
import { Notification } from './Notification';
import { ScrollToTop } from './ScrollToTop';
import { StartNotice } from './startNotice';

/**
 * react-admin renders `<Admin notification>` once, outside every route, so this is the panel's always-present
 * chrome: the toast area (with the notice the panel starts with), the loading bar and scroll-to-top.
 */
export const AppNotification = () => (
  <>
    <ScrollToTop />
    <GlobalLoadingBar />
    <Notification />
    <StartNotice />
  </>
);
