import { onlineManager, QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, type DataProvider, memoryStore, SimpleForm, testDataProvider } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { i18nProvider } from '../../src/web/i18n/i18n';
import { LookupInput } from '../../src/web/lists/LookupInput';

/**
 * The typeahead's failure text (seed section 2: 'Sorry, suggestions could not be loaded.'), whatever made the
 * lookup fail: the server's error, or no connection (react-query pauses the query instead of failing it, and
 * react-admin's own text was 'No connectivity. Could not fetch data.').
 */
const renderLookup = (getList: DataProvider['getList'], locale = 'en') =>
  render(
    <MemoryRouter>
      <AdminContext
        store={memoryStore({ locale })}
        dataProvider={testDataProvider({ getList } as Partial<DataProvider>)}
        i18nProvider={i18nProvider}
        queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <SimpleForm toolbar={false}>
          <LookupInput source="stateId" reference="states" label="resources.districts.fields.stateId" />
        </SimpleForm>
      </AdminContext>
    </MemoryRouter>,
  );

const failing: DataProvider['getList'] = async () => {
  throw new Error('Error: boom');
};

describe('LookupInput failure text', () => {
  afterEach(() => onlineManager.setOnline(true));

  it("says the seed's text when the server fails, not the error's", async () => {
    const user = userEvent.setup();
    renderLookup(failing);
    await user.click(await screen.findByRole('combobox'));
    expect((await screen.findAllByText('Sorry, suggestions could not be loaded.')).length).toBeGreaterThan(0);
    expect(screen.queryByText(/boom/)).not.toBeInTheDocument();
  });

  it('says it in Hindi when Hindi is chosen', async () => {
    const user = userEvent.setup();
    renderLookup(failing, 'hi');
    await user.click(await screen.findByRole('combobox'));
    expect((await screen.findAllByText('क्षमा करें, सुझाव लोड नहीं हो सके।')).length).toBeGreaterThan(0);
    expect(screen.queryByText('Sorry, suggestions could not be loaded.')).not.toBeInTheDocument();
  });

  it("with no connection, keeps the input and says the seed's text, never 'No connectivity'", async () => {
    const user = userEvent.setup();
    onlineManager.setOnline(false);
    const getList = vi.fn(async () => ({ data: [], total: 0 }));
    renderLookup(getList);
    const input = await screen.findByRole('combobox');
    await user.click(input);
    expect((await screen.findAllByText('Sorry, suggestions could not be loaded.')).length).toBeGreaterThan(0);
    expect(screen.queryByText(/No connectivity/)).not.toBeInTheDocument();
    expect(getList).not.toHaveBeenCalled();
  });
});
