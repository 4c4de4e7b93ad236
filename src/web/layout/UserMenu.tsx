import SecurityIcon from '@mui/icons-material/Security';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import { UserMenu, useTranslate, useUserMenu } from 'react-admin';
import { Link } from 'react-router-dom';
import { SECURITY_PATH } from '../providers/paths';

/** The user menu's link to the Security page (the second step of signing in, the sessions). */
const SecurityMenuItem = () => {
  const translate = useTranslate();
  const userMenu = useUserMenu();
  return (
    <MenuItem component={Link} to={SECURITY_PATH} onClick={() => userMenu?.onClose()}>
      <ListItemIcon>
        <SecurityIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('app.menu.security')}</ListItemText>
    </MenuItem>
  );
};

/**
 * The app bar's user menu (react-admin's UserMenu, under the signed-in person's name): the person's own pages.
 * Logout stays in the sidebar, behind its confirm dialog (seed section 2), so it is not repeated here.
 */
export const AppUserMenu = () => (
  <UserMenu>
    <SecurityMenuItem />
  </UserMenu>
);
