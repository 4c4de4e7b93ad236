import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { testDataProvider } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { MSG } from '../../src/shared/messages';
import { ChangePasswordDialog } from '../../src/web/pages/ChangePasswordDialog';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';

const renderDialog = (resetPassword = vi.fn()) => {
  const dataProvider = testDataProvider({ resetPassword } as never);
  render(
    renderInAdmin(
      <Routes>
        <Route path="/home" element={<ChangePasswordDialog open />} />
        <Route path="/auth" element={<div>LOGIN SCREEN</div>} />
      </Routes>,
      { path: '/home', dataProvider },
    ),
  );
  return resetPassword;
};

describe('ChangePasswordDialog', () => {
  it('is titled Update Password with the three labelled fields', async () => {
    renderDialog();
    expect(await screen.findByRole('dialog', { name: 'Update Password' })).toBeInTheDocument();
    expect(screen.getByLabelText('Old Password *')).toBeInTheDocument();
    expect(screen.getByLabelText('New Password *')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm New Password *')).toBeInTheDocument();
  });

  it('opens with the focus in Old Password', async () => {
    renderDialog();
    await screen.findByRole('dialog', { name: 'Update Password' });
    expect(screen.getByLabelText('Old Password *')).toHaveFocus();
  });

  it('cannot be dismissed with Escape', async () => {
    const user = userEvent.setup();
    renderDialog();
    await screen.findByRole('dialog', { name: 'Update Password' });
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Update Password' })).toBeInTheDocument();
  });

  it('a weak new password shows the pattern message', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.type(await screen.findByLabelText('New Password *'), 'password1');
    await user.tab();
    expect(await screen.findByText(MSG.passwordPattern)).toBeInTheDocument();
  });

  it('a strong new password shows no pattern message', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.type(await screen.findByLabelText('New Password *'), 'Str0ng#Pass');
    await user.tab();
    expect(screen.queryByText(MSG.passwordPattern)).not.toBeInTheDocument();
  });

  it('a different confirmation shows the mismatch message', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.type(await screen.findByLabelText('New Password *'), 'Str0ng#Pass');
    await user.type(screen.getByLabelText('Confirm New Password *'), 'Str0ng#Pasz');
    await user.tab();
    expect(await screen.findByText(MSG.passwordMismatch)).toBeInTheDocument();
  });

  it('offers Logout, so a user without the initial password is not trapped', async () => {
    const user = userEvent.setup();
    localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(200, { result: true })));
    const resetPassword = renderDialog();
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('LOGIN SCREEN')).toBeInTheDocument();
    expect(localStorage.getItem(SESSION_KEYS.authToken)).toBeNull();
    expect(resetPassword).not.toHaveBeenCalled();
  });

  it('an empty submit marks all fields required, toasts Invalid data! and sends nothing', async () => {
    const user = userEvent.setup();
    const resetPassword = renderDialog();
    await user.click(await screen.findByRole('button', { name: 'Update' }));
    expect(await screen.findAllByText(MSG.required)).toHaveLength(3);
    expect(await screen.findByText(MSG.validationFailed)).toBeInTheDocument();
    expect(resetPassword).not.toHaveBeenCalled();
  });

  it('on success toasts, logs out (session cleared) and goes to /auth', async () => {
    const user = userEvent.setup();
    localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
    localStorage.setItem(
      SESSION_KEYS.userData,
      JSON.stringify({ user: wireUser({ passwordUpdatedAt: null }) }),
    );
    localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(wireUser({ passwordUpdatedAt: null })));
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse(200, { result: true }));
    vi.stubGlobal('fetch', fetchMock);
    const resetPassword = renderDialog(vi.fn().mockResolvedValue({ message: MSG.passwordUpdated }));

    await user.type(await screen.findByLabelText('Old Password *'), 'Initial#1');
    await user.type(screen.getByLabelText('New Password *'), 'Str0ng#Pass');
    await user.type(screen.getByLabelText('Confirm New Password *'), 'Str0ng#Pass');
    await user.click(screen.getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('LOGIN SCREEN')).toBeInTheDocument();
    expect(resetPassword).toHaveBeenCalledWith({
      oldPassword: 'Initial#1',
      newPassword: 'Str0ng#Pass',
      confirmPassword: 'Str0ng#Pass',
    });
    expect(await screen.findByText(MSG.passwordUpdated)).toBeInTheDocument();
    for (const key of Object.values(SESSION_KEYS)) expect(localStorage.getItem(key)).toBeNull();
    expect((fetchMock.mock.calls[0] as [string])[0]).toBe('/api/v1/account/logout');
  });
});
