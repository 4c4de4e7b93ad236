import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router-dom';
import { NOTIFY_MSG } from '../../src/shared/constants/notifications';
import { UserType } from '../../src/shared/enums';
import { can } from '../../src/shared/roles';
import type { WireNotification, WireWebhook } from '../../src/shared/schemas/notifications';
import { MENU_ENTRIES } from '../../src/web/layout/Menu';
import { SecurityPage } from '../../src/web/pages/security/SecurityPage';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { NotificationList } from '../../src/web/resources/notifications/NotificationList';
import { WebhookList } from '../../src/web/resources/webhooks/WebhookList';
import { cellTexts, jsonResponse, renderInAdmin, wireUser } from './helpers';
import { stubServer } from './salesServer';

const login = (type: UserType) => {
  const user = wireUser({ _id: '6c1f0c44-3f5e-4c2b-9d55-1f7b2a0c0e00', type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const DELIVERIES: WireNotification[] = [
  {
    _id: 'n1',
    event: 'payout.paid',
    channel: 'WEBHOOK',
    recipient: 'https://erp.example.com/hook',
    language: 'en',
    status: 'PENDING',
    attempts: 2,
    lastError: 'answered 503',
    nextAttemptAt: '2026-11-22T06:31:00.000Z',
    createdAt: '2026-11-22T06:30:00.000Z',
    sentAt: null,
  },
  {
    _id: 'n2',
    event: 'sale.confirmed',
    channel: 'SMS',
    recipient: '93XXXXXX01',
    language: 'hi',
    status: 'SENT',
    attempts: 1,
    lastError: null,
    nextAttemptAt: null,
    createdAt: '2026-11-22T06:00:00.000Z',
    sentAt: '2026-11-22T06:00:01.000Z',
  },
];

const HOOKS: WireWebhook[] = [
  {
    _id: 'w1',
    url: 'https://erp.example.com/hook',
    events: ['payout.paid'],
    createdAt: '2026-11-20T06:00:00.000Z',
  },
];

const server = () =>
  stubServer((request) => {
    if (request.path === 'notifications/fetch')
      return jsonResponse(200, { result: { notifications: DELIVERIES, totalCounts: 2 } });
    if (request.path === 'notifications/retry/n1')
      return jsonResponse(200, { result: true, message: NOTIFY_MSG.retryQueued });
    if (request.path === 'webhooks/fetch')
      return jsonResponse(200, { result: { webhooks: HOOKS, totalCounts: HOOKS.length } });
    if (request.path === 'webhooks/create')
      return jsonResponse(200, {
        result: { ...HOOKS[0], _id: 'w2', secret: `whsec_${'a'.repeat(64)}` },
        message: NOTIFY_MSG.webhookCreated,
      });
    if (request.path === 'notifications/preferences')
      return jsonResponse(200, {
        result: {
          language: 'en',
          email: true,
          sms: (request.body as { sms?: boolean } | undefined)?.sms ?? true,
        },
        ...(request.method === 'POST' ? { message: NOTIFY_MSG.preferencesSaved } : {}),
      });
    return undefined;
  });

const renderAt = (path: string, element: ReactElement) =>
  render(
    renderInAdmin(
      <Routes>
        <Route path={path} element={element} />
      </Routes>,
      { path, dataProvider: createDataProvider() },
    ),
  );

describe('Notifications and Webhooks (ADMIN, issue 55)', () => {
  it('are ADMIN’s screens alone, in the menu', () => {
    const entries = MENU_ENTRIES.map((e) => e.key);
    expect(entries).toEqual(expect.arrayContaining(['webhooks', 'notifications']));
    for (const resource of ['webhooks', 'notifications']) {
      expect(can(UserType.ADMIN, resource, 'list')).toBe(true);
      for (const type of [UserType.EMPLOYEE, UserType.RETAILER])
        expect(can(type, resource, 'list')).toBe(false);
    }
  });

  it('lists every delivery with its channel, masked recipient, status, attempts and last error; Retry now', async () => {
    login(UserType.ADMIN);
    const api = server();
    const user = userEvent.setup();
    renderAt('/notifications/list', <NotificationList />);
    const row = (await screen.findByText('https://erp.example.com/hook')).closest('tr') as HTMLElement;
    expect(cellTexts(row).slice(1, 7)).toEqual([
      'payout.paid',
      'WEBHOOK',
      'https://erp.example.com/hook',
      'PENDING',
      '2',
      'answered 503',
    ]);
    // A delivery already sent offers no Retry now.
    const sent = screen.getByText('93XXXXXX01').closest('tr') as HTMLElement;
    expect(within(sent).queryByRole('button', { name: /Retry/ })).toBeNull();
    await user.click(
      within(row).getByRole('button', { name: 'Retry the delivery to https://erp.example.com/hook now' }),
    );
    await waitFor(() => expect(api.posts()).toEqual([['POST notifications/retry/n1', {}]]));
    expect(await screen.findByText(NOTIFY_MSG.retryQueued)).toBeInTheDocument();
  });

  it('registers an endpoint and shows its secret once', async () => {
    login(UserType.ADMIN);
    const api = server();
    const user = userEvent.setup();
    renderAt('/webhooks/list', <WebhookList />);
    await screen.findByText('https://erp.example.com/hook');
    await user.click(screen.getByRole('button', { name: 'Register Endpoint' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: /URL/ }), 'https://crm.example.com/in');
    await user.click(within(dialog).getByRole('checkbox', { name: 'sale.confirmed' }));
    await user.click(within(dialog).getByRole('button', { name: 'Register Endpoint' }));
    await waitFor(() =>
      expect(api.posts()).toEqual([
        ['POST webhooks/create', { url: 'https://crm.example.com/in', events: ['sale.confirmed'] }],
      ]),
    );
    expect(await screen.findByText(`whsec_${'a'.repeat(64)}`)).toBeInTheDocument();
  });
});

describe('the Security page’s notification choices', () => {
  it('turns SMS off for oneself', async () => {
    login(UserType.RETAILER);
    const api = server();
    const user = userEvent.setup();
    renderAt('/security', <SecurityPage />);
    const sms = await screen.findByRole('switch', { name: 'By SMS' });
    expect(sms).toBeChecked();
    await user.click(sms);
    await waitFor(() =>
      expect(api.posts().filter(([call]) => call === 'POST notifications/preferences')).toContainEqual([
        'POST notifications/preferences',
        { sms: false },
      ]),
    );
    await waitFor(() => expect(screen.getByRole('switch', { name: 'By SMS' })).not.toBeChecked());
  });
});
