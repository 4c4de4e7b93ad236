import LogoutIcon from '@mui/icons-material/PowerSettingsNew';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import { useState } from 'react';
import { Confirm, useLogout, useSidebarState, useTranslate } from 'react-admin';
import { LOGIN_PATH } from '../providers/authProvider';

/**
 * Sidebar Logout: confirm first (seed section 2), then clear the session and go to /auth. Reachable with Tab like
 * every other sidebar link (MUI's menu items are not, by default).
 */
export const LogoutMenuItem = () => {
  const translate = useTranslate();
  const logout = useLogout();
  const [sidebarOpen] = useSidebarState();
  const [confirmOpen, setConfirmOpen] = useState(false);

  return (
    <>
      <MenuItem tabIndex={0} onClick={() => setConfirmOpen(true)} sx={{ py: 1 }}>
        <ListItemIcon sx={{ minWidth: 40 }}>
          <LogoutIcon fontSize="small" />
        </ListItemIcon>
        {sidebarOpen && <ListItemText>{translate('app.menu.logout')}</ListItemText>}
      </MenuItem>
      <Confirm
        isOpen={confirmOpen}
        title={translate('app.logout.title')}
        content={translate('app.logout.text')}
        confirm={translate('app.logout.yes')}
        cancel={translate('app.logout.no')}
        onConfirm={() => {
          setConfirmOpen(false);
          logout({}, LOGIN_PATH, false);
        }}
        onClose={() => setConfirmOpen(false)}
      />
    </>
  );
};
