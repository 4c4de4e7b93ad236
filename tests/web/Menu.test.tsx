import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthProvider } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { MSG } from '../../src/shared/messages';
import { Menu } from '../../src/web/layout/Menu';
import { authProvider } from '../../src/web/providers/authProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';

const login = (type: UserType) => {
  const user = wireUser({ type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const renderMenu = (provider: AuthProvider = authProvider) =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/home" element={<Menu />} />
        <Route path="/auth" element={<div>LOGIN SCREEN</div>} />
      </Routes>,
      { path: '/home', authProvider: provider },
    ),
  );

describe('Menu', () => {
  it('shows Home to an admin', async () => {
    login(UserType.ADMIN);
    renderMenu();
    expect(await screen.findByRole('menuitem', { name: 'Home' })).toHaveAttribute('href', '/home');
  });

  it('hides Home from a retailer (role table)', async () => {
    login(UserType.RETAILER);
    renderMenu();
    expect(await screen.findByRole('menuitem', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Home' })).not.toBeInTheDocument();
  });

  it('Logout asks for confirmation; No keeps the session', async () => {
    const user = userEvent.setup();
    login(UserType.ADMIN);
    renderMenu();
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    const dialog = await screen.findByRole('dialog', { name: MSG.logoutTitle });
    expect(dialog).toHaveTextContent(MSG.logoutText);
    await user.click(screen.getByRole('button', { name: MSG.logoutNo }));
    expect(localStorage.getItem(SESSION_KEYS.authToken)).toBe('tok-1');
    expect(screen.queryByText('LOGIN SCREEN')).not.toBeInTheDocument();
  });

  it('Yes, logout clears the session and goes to /auth', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(200, { result: true })));
    login(UserType.ADMIN);
    renderMenu();
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await user.click(await screen.findByRole('button', { name: MSG.logoutYes }));
    expect(await screen.findByText('LOGIN SCREEN')).toBeInTheDocument();
    for (const key of Object.values(SESSION_KEYS)) expect(localStorage.getItem(key)).toBeNull();
  });
});
