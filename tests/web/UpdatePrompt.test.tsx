import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RegisterSWOptions } from 'vite-plugin-pwa/types';
import { App } from '../../src/web/App';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { registerServiceWorker } from '../../src/web/serviceWorker';
import { jsonResponse, wireUser } from './helpers';

/**
 * The browser's side of the worker (vite-plugin-pwa's registerSW over Workbox): what it tells the panel, and whether
 * the panel asked the waiting worker to take over. tests/e2e/installable.e2e.ts runs the real one.
 */
const worker = vi.hoisted(() => ({
  options: undefined as RegisterSWOptions | undefined,
  skipWaiting: vi.fn(async () => {}),
}));
vi.mock('virtual:pwa-register', () => ({
  registerSW: (options: RegisterSWOptions) => {
    worker.options = options;
    return worker.skipWaiting;
  },
}));

const NEW_VERSION = 'A new version is available.';

const signedIn = () => {
  const user = wireUser();
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
  vi.stubGlobal(
    'fetch',
    vi.fn().mockImplementation(async () => jsonResponse(200, { result: {} })),
  );
};

const visit = (path: string) => {
  window.history.replaceState({}, '', path);
  return render(<App />);
};

beforeAll(() => {
  // A built panel registers its worker once the page has loaded (jsdom's has).
  vi.stubEnv('PROD', true);
  registerServiceWorker();
  vi.unstubAllEnvs();
});

describe('the update prompt', () => {
  it('says nothing until a new build is ready, then offers to reload: the waiting worker takes over only on Reload', async () => {
    expect(worker.options).toBeDefined();
    signedIn();
    visit('/home');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(screen.queryByText(NEW_VERSION)).not.toBeInTheDocument();

    act(() => worker.options?.onNeedRefresh?.());
    const prompt = await screen.findByRole('status');
    expect(prompt).toHaveTextContent(NEW_VERSION);
    expect(worker.skipWaiting).not.toHaveBeenCalled();

    // The browser's registration, with the new build's worker waiting (jsdom has no service workers).
    const controllerChange = vi.fn();
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: async () => ({ waiting: {} }), addEventListener: controllerChange },
    });
    try {
      await userEvent.click(screen.getByRole('button', { name: 'Reload Application' }));
      // The waiting worker is asked to take over; the page reloads once that worker controls it.
      await waitFor(() => expect(worker.skipWaiting).toHaveBeenCalledTimes(1));
      expect(controllerChange).toHaveBeenCalledWith('controllerchange', expect.any(Function), { once: true });
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
    }
  });

  // Last: the chosen language outlives the test in the panel's i18n provider. The new build is still waiting.
  it('is in Hindi for a Hindi reader', async () => {
    localStorage.setItem('RaStore.locale', '"hi"');
    signedIn();
    visit('/home');
    const prompt = await screen.findByRole('status');
    expect(prompt).toHaveTextContent('एक नया संस्करण उपलब्ध है।');
    expect(screen.getByRole('button', { name: 'एप्लिकेशन फिर से लोड करें' })).toBeInTheDocument();
  });
});
