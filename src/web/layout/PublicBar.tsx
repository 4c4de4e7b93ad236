import { Box } from '@mui/material';
import type { ReactNode } from 'react';
import { LocalesMenuButton, ToggleThemeButton, useThemesContext } from 'react-admin';
import { OfflineBanner } from './OfflineBanner';
import { UpdatePrompt } from './UpdatePrompt';

/**
 * The top strip of the public pages (welcome, onboarding; the sign-in form draws its own), which have no app bar:
 * the language switch and the theme toggle, as the app bar has them. `start` is shown on its left (a page's name or
 * a way back). Below it, the offline banner while there is no connection, and the offer to reload into a new build
 * once one is ready.
 */
export const PublicBar = ({ start }: { start?: ReactNode }) => {
  const { darkTheme } = useThemesContext();
  return (
    <>
      <Box
        component="header"
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          px: { xs: 1, md: 2 },
          py: 1,
          color: 'text.primary',
        }}
      >
        <Box sx={{ flex: 1, minWidth: 0 }}>{start}</Box>
        <LocalesMenuButton />
        {darkTheme && <ToggleThemeButton />}
      </Box>
      <OfflineBanner />
      <UpdatePrompt />
    </>
  );
};
