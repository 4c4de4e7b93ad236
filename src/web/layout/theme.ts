import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** A clean MUI theme on react-admin's defaults; sidebar 220 px (seed section 9). */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    mode: 'light',
    primary: { main: '#1f4e8c' },
    secondary: { main: '#0f7b6c' },
    background: { default: '#f5f7fa' },
  },
  shape: { borderRadius: 8 },
  sidebar: { width: 220, closedWidth: 55 },
  components: {
    ...defaultTheme.components,
    MuiTextField: { defaultProps: { variant: 'outlined', size: 'small' } },
  },
};
