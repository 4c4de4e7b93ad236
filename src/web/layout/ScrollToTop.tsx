import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** Seed section 2: every route activation scrolls the page to top. */
export const ScrollToTop = () => {
  const { pathname } = useLocation();
  useEffect(() => {
    // pathname is the trigger: scroll whenever the route changes.
    void pathname;
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
};
