import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { MSG } from '../../src/shared/messages';
import { afterLoginPath, Login } from '../../src/web/pages/Login';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';

const renderLogin = () =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/auth" element={<Login />} />
        <Route path="/home" element={<div>HOME SCREEN</div>} />
        <Route path="/welcome" element={<div>WELCOME SCREEN</div>} />
      </Routes>,
      { path: '/auth' },
    ),
  );

describe('Login page', () => {
  it('shows the seed texts and labelled fields', async () => {
    renderLogin();
    expect(await screen.findByRole('heading', { name: 'Welcome back!' })).toBeInTheDocument();
    expect(screen.getByText('Enter your details to continue')).toBeInTheDocument();
    expect(screen.getByLabelText('Mobile *')).toBeInTheDocument();
    expect(screen.getByLabelText('Password *')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Create Account' })).toHaveAttribute('href', '/welcome');
    expect(screen.getByRole('link', { name: 'Tierdesk home' })).toHaveAttribute('href', '/');
  });

  it('toggles password visibility', async () => {
    const user = userEvent.setup();
    renderLogin();
    const password = await screen.findByLabelText('Password *');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('shows no field messages before a field is touched', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.type(await screen.findByLabelText('Mobile *'), '12');
    expect(screen.queryByText('Minimum length not fulfilled')).not.toBeInTheDocument();
    expect(screen.queryByText('This field is required')).not.toBeInTheDocument();
  });

  it('submitting empty marks both fields required and toasts the invalid-form message', async () => {
    const user = userEvent.setup();
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderLogin();
    await user.click(await screen.findByRole('button', { name: 'Login' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect(screen.getByLabelText('Mobile *')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Password *')).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByText(MSG.invalidLoginForm)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a 3-character mobile shows the minimum length message once touched', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.type(await screen.findByLabelText('Mobile *'), '123');
    await user.tab();
    expect(await screen.findByText('Minimum length not fulfilled')).toBeInTheDocument();
  });

  it('Enter submits; success stores the session, toasts and goes to /home', async () => {
    const user = userEvent.setup();
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        jsonResponse(200, { result: { token: 'tok-9', user: wireUser() }, message: MSG.loginSuccess }),
      )
      .mockResolvedValueOnce(jsonResponse(200, { result: { users: [wireUser()], totalCounts: 1 } }));
    vi.stubGlobal('fetch', fetchMock);
    renderLogin();
    await user.type(await screen.findByLabelText('Mobile *'), ' 9000000001 ');
    await user.type(screen.getByLabelText('Password *'), 'Secret#123{Enter}');
    expect(await screen.findByText('HOME SCREEN')).toBeInTheDocument();
    expect(await screen.findByText(MSG.loginSuccess)).toBeInTheDocument();
    expect(JSON.parse(String((fetchMock.mock.calls[0] as [string, RequestInit])[1].body))).toEqual({
      userName: '9000000001',
      password: 'Secret#123',
    });
    expect(localStorage.getItem('authToken')).toBe('tok-9');
  });

  it('shows a server refusal in the red error toast and stays on the page', async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(jsonResponse(403, { message: MSG.customerLoginRefused })),
    );
    renderLogin();
    await user.type(await screen.findByLabelText('Mobile *'), '9000000009');
    await user.type(screen.getByLabelText('Password *'), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    const toast = await screen.findByText(`Error: ${MSG.customerLoginRefused}`);
    expect(toast.closest('[role="alert"]')).toHaveTextContent(MSG.errorTitle);
    expect(screen.queryByText('HOME SCREEN')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled());
    expect(localStorage.getItem('authToken')).toBeNull();
  });
});

describe('after signing in', () => {
  it("returns to where the session ended (react-admin's nextPathname), else home; never off the panel", () => {
    expect(afterLoginPath({ nextPathname: '/customer/list', nextSearch: '?page=2' })).toBe(
      '/customer/list?page=2',
    );
    expect(afterLoginPath({ nextPathname: '/sale/abc' })).toBe('/sale/abc');
    expect(afterLoginPath(undefined)).toBe('/home');
    expect(afterLoginPath({ nextPathname: '/auth' })).toBe('/home');
    expect(afterLoginPath({ nextPathname: '//evil.example/x' })).toBe('/home');
    expect(afterLoginPath({ nextPathname: 'https://evil.example' })).toBe('/home');
  });
});
