import { useMutation } from '@tanstack/react-query';
import { type Identifier, useDataProvider, useNotify } from 'react-admin';
import { type AppDataProvider, UnreadableAnswerError } from '../../providers/dataProvider';

/** Opens a blank tab inside the click itself (a popup blocker refuses `window.open` after an await). */
export const blankTab = () => window.open('', '_blank');

/** Sends the blank tab to `url`, without a handle on the panel; false when the browser refused the tab. */
export const sendTab = (tab: Window | null, url: string) => {
  if (!tab || tab.closed) return false;
  tab.opener = null;
  tab.location.href = url;
  return true;
};

/** The account-opening URL of a PENDING sale (`bought_products/opening/:id`) in a tab opened inside the click. */
export const useReopenSale = () => {
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const reopen = useMutation({
    mutationFn: (id: Identifier) => dataProvider.getOpeningUrl(id),
  });
  const start = (id: Identifier, onOpened?: () => void) => {
    const tab = blankTab();
    reopen.mutate(id, {
      onSuccess: (url) => {
        // A call that ended the session answers nothing usable (react-admin has logged out): send nothing.
        if (typeof url !== 'string') {
          tab?.close();
          return;
        }
        if (sendTab(tab, url)) onOpened?.();
        // The browser refused the tab: open the page in this one rather than lose it.
        else window.location.assign(url);
      },
      onError: (error) => {
        tab?.close();
        notify(error instanceof UnreadableAnswerError ? `Error: ${error.message}` : error.message, {
          type: 'error',
        });
      },
    });
  };
  return { reopen: start, isPending: reopen.isPending };
};
