import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/**
 * Shared by both themes: sidebar 220 px (seed section 9), outlined small fields, rounded corners.
 *
 * The page never grows wider than the window (a phone at 360 px included): react-admin's layout is as wide as its
 * content (`min-width: fit-content`), so one wide table or long code widened every screen and slid the app bar's
 * buttons off it. Here the layout and its content column keep the window's width, and what is wider scrolls inside
 * its own container (a list's table wrapper, a TableContainer).
 */
const common: RaThemeOptions = {
  shape: { borderRadius: 8 },
  sidebar: { width: 220, closedWidth: 55 },
  components: {
    ...defaultLightTheme.components,
    MuiTextField: { defaultProps: { variant: 'outlined', size: 'small' } },
    // MUI's alert text scrolls (`overflow: auto`): on a 360 px phone a line's last pixel made the sandbox banner a
    // scrolling region Tab could not reach (axe). Its text wraps instead, a long word included.
    MuiAlert: { styleOverrides: { message: { overflow: 'visible', minWidth: 0, overflowWrap: 'anywhere' } } },
    RaLayout: {
      styleOverrides: { root: { minWidth: 0, '& .RaLayout-content': { minWidth: 0 } } },
    },
  },
};

/**
 * The light theme on react-admin's defaults. Status colours are a shade darker than MUI's, so a small chip's text
 * keeps a 4.5:1 contrast on white (WCAG AA, checked by the browser suite's axe run).
 */
export const lightTheme: RaThemeOptions = {
  ...defaultLightTheme,
  ...common,
  palette: {
    mode: 'light',
    primary: { main: '#1f4e8c' },
    secondary: { main: '#0f7b6c' },
    background: { default: '#f5f7fa' },
    warning: { main: '#a04f00' },
    info: { main: '#01579b' },
    success: { main: '#2e7d32' },
    error: { main: '#c62828' },
  },
};

/** The dark theme (react-admin's theme toggle): the same hues, light enough to read on a dark background. */
export const darkTheme: RaThemeOptions = {
  ...defaultDarkTheme,
  ...common,
  components: {
    ...defaultDarkTheme.components,
    ...common.components,
  },
  palette: {
    mode: 'dark',
    primary: { main: '#9cc0f0' },
    secondary: { main: '#5fc9b8' },
    background: { default: '#101418', paper: '#182028' },
    warning: { main: '#ffb74d' },
    info: { main: '#81d4fa' },
    success: { main: '#81c784' },
    error: { main: '#ff8a80' },
  },
};
