import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../src/web/App';
import { jsonResponse } from './helpers';

const visit = (path: string) => {
  window.history.replaceState({}, '', path);
  return render(<App />);
};

describe('onboarding routes', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(200, { result: { state: [] } })));
  });

  it('the Welcome cards open the public retailer form, without the sidebar and without a session', async () => {
    const user = userEvent.setup();
    visit('/welcome');
    await user.click(await screen.findByRole('link', { name: /Join as Retailer/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Retailer Onboarding' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/onboarding/retailer');
    expect(screen.queryByRole('menuitem', { name: 'Logout' })).not.toBeInTheDocument();
  });

  it('/onboarding/distributor is the same form for a distributor, with a way back to Welcome', async () => {
    const user = userEvent.setup();
    visit('/onboarding/distributor');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Distributor Onboarding' }),
    ).toBeInTheDocument();
    await user.click(screen.getAllByRole('link', { name: 'Back to Welcome' })[0]);
    expect(await screen.findByRole('link', { name: /Join as Distributor/ })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/welcome');
  });
});
