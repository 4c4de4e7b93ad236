import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { I18nContextProvider } from 'react-admin';
import { i18nProvider } from '../../src/web/i18n/i18n';
import { GlobalLoadingBar } from '../../src/web/layout/GlobalLoadingBar';

const Slow = ({ until }: { until: Promise<string> }) => {
  useQuery({ queryKey: ['slow'], queryFn: () => until });
  return null;
};

describe('GlobalLoadingBar', () => {
  it('shows while a query is in flight and disappears when it settles', async () => {
    let finish: (value: string) => void = () => {};
    const until = new Promise<string>((resolve) => {
      finish = resolve;
    });
    render(
      <I18nContextProvider value={i18nProvider}>
        <QueryClientProvider client={new QueryClient()}>
          <GlobalLoadingBar />
          <Slow until={until} />
        </QueryClientProvider>
      </I18nContextProvider>,
    );
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    finish('done');
    await waitFor(() =>
      expect(screen.queryByRole('progressbar', { name: 'Loading' })).not.toBeInTheDocument(),
    );
  });
});
