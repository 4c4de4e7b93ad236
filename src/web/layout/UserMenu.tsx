import SecurityIcon from '@mui/icons-material/Security';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import { UserMenu, useGetIdentity, useTranslate, useUserMenu } from 'react-admin';
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
 * Logout stays in the sidebar, behind its confirm dialog (seed section 2), so it is not repeated here. The button
 * shows the name, so its accessible name starts with it ("Asha Admin, Profile"), as WCAG's label-in-name asks.
 */
export const AppUserMenu = () => {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const label = identity?.fullName
    ? translate('app.menu.profileOf', { name: identity.fullName })
    : 'ra.auth.user_menu';
  return (
    <UserMenu label={label}>
      <SecurityMenuItem />
    </UserMenu>
  );
};
