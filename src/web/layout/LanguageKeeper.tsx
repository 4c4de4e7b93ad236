import { useEffect } from 'react';
import { useDataProvider, useLocaleState } from 'react-admin';
import type { AppDataProvider } from '../providers/dataProvider';
import { getStoredUser } from '../providers/session';

/** Where this browser notes the language it last told the server, per person. */
const keyOf = (userId: string) => `tierdesk.notificationLanguage.${userId}`;

/**
 * Tells the server the panel's language whenever the signed-in person's choice differs from what this browser told it
 * last (issue 55): notifications are written in the panel's last choice. Renders nothing; a failure is tried again
 * at the next change of language or sign-in.
 */
export const LanguageKeeper = () => {
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<AppDataProvider>();
  useEffect(() => {
    const userId = getStoredUser()?._id;
    if (!userId || (locale !== 'en' && locale !== 'hi')) return;
    const told = localStorage.getItem(keyOf(userId));
    // English is the server's own default: a browser that never told it anything has nothing to tell.
    if (told === locale || (told === null && locale === 'en')) return;
    dataProvider
      .saveNotificationPreferences({ language: locale })
      .then(() => localStorage.setItem(keyOf(userId), locale))
      .catch(() => undefined);
  }, [locale, dataProvider]);
  return null;
};
