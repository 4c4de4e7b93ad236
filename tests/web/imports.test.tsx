import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UserType } from '../../src/shared/enums';
import { IMPORT_COLUMNS, IMPORT_MSG, type WireImportJob } from '../../src/shared/schemas/imports';
import { en } from '../../src/web/i18n/en';
import { hi } from '../../src/web/i18n/hi';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { ImportPage } from '../../src/web/resources/imports/ImportPage';
import { jsonResponse, renderInAdmin, savedFiles, wireUser } from './helpers';

// The Import screen's row errors (issue 51): the server keeps the first 1,000 of a job's errors and counts them all;
// the screen says how many there are, that only the first 1,000 are kept, and pages them as the server does.

const login = () => {
  const user = wireUser({ type: UserType.ADMIN });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

/** A finished check of 1,500 bad rows: 1,500 errors, the first 1,000 kept (rows 2 to 1001, one each). */
const jobPage = (page: number, limit: number): WireImportJob => {
  const first = (page - 1) * limit;
  // The first rows' errors name other columns and a whole row (no column).
  const columns = ['email', 'panId', 'tehsil', ''];
  const kept = Array.from({ length: 1000 }, (_, i) => ({
    row: i + 2,
    column: columns[i] ?? 'email',
    message: 'Invalid email',
  }));
  return {
    _id: 'job-1',
    kind: 'retailers',
    fileName: 'retailers.csv',
    status: 'DONE',
    dryRun: true,
    mode: 'create',
    total: 1500,
    counts: { read: 1500, created: 0, updated: 0, unchanged: 0, conflicts: 0, refused: 1500 },
    errors: kept.slice(first, first + limit),
    errorsTotal: 1500,
    errorsKept: 1000,
    message: null,
    createdAt: '2026-11-30T10:00:00.000Z',
  };
};

/** The import API as the panel meets it; `running` answers the start as a person with an import under way. */
const stubServer = ({ running = false } = {}) => {
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://x');
    const path = url.pathname.replace('/api/v1/', '');
    if (path === 'import/retailers' && init.method === 'POST')
      return running
        ? jsonResponse(409, { message: IMPORT_MSG.running })
        : jsonResponse(200, { result: { _id: 'job-1' }, message: IMPORT_MSG.started });
    if (path === 'import/fetch/job-1' && url.searchParams.get('format') === 'csv')
      return new Response('row,column,message\r\n2,email,Invalid email\r\n', {
        headers: { 'Content-Type': 'text/csv' },
      });
    if (path === 'import/fetch/job-1')
      return jsonResponse(200, {
        result: jobPage(
          Number(url.searchParams.get('errorsPage') ?? 1),
          Number(url.searchParams.get('errorsLimit') ?? 100),
        ),
      });
    return jsonResponse(404, { message: `not stubbed: ${path}` });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
};

const fetchesOf = (fetch: ReturnType<typeof stubServer>, path: string) =>
  fetch.mock.calls
    .map(([url]) => new URL(String(url), 'http://x'))
    .filter((url) => url.pathname === `/api/v1/${path}`)
    .map((url) => url.searchParams.toString());

/** Renders the screen, chooses a file and presses the check button. */
async function checkAFile(locale: 'en' | 'hi' = 'en') {
  const user = userEvent.setup();
  render(renderInAdmin(<ImportPage />, { dataProvider: createDataProvider(), locale }));
  const csv = new File(['name,email\n'], 'retailers.csv', { type: 'text/csv' });
  const input = await screen.findByLabelText(locale === 'hi' ? 'CSV फ़ाइल' : 'CSV file', {
    selector: 'input',
  });
  await user.upload(input, csv);
  await user.click(screen.getByRole('button', { name: locale === 'hi' ? 'फ़ाइल जाँचें' : 'Check file' }));
  return user;
}

describe('the Import screen’s row errors', () => {
  let saved: string[];
  beforeEach(() => {
    login();
    saved = savedFiles();
  });

  it('says how many there are and that only the first 1,000 are kept, and pages them a hundred at a time', async () => {
    const fetch = stubServer();
    const user = await checkAFile();
    const summary = await screen.findByTestId('import-summary');
    expect(screen.getByRole('heading', { level: 1, name: 'Import from CSV' })).toBeInTheDocument();
    expect(within(summary).getByTestId('import-errors-total')).toHaveTextContent(
      '1,500 errors in all. Only the first 1,000 are kept: fix those rows and check the file again to find the rest.',
    );
    const table = within(summary).getByRole('table', { name: 'Rows with errors' });
    const rows = () => within(table).getAllByRole('row').slice(1);
    expect(rows()).toHaveLength(100);
    expect(within(rows()[0]).getAllByRole('cell')[0]).toHaveTextContent('2');
    // Each column by its label, never the file's heading (a code).
    expect(
      rows()
        .slice(0, 4)
        .map((row) => within(row).getAllByRole('cell')[1].textContent),
    ).toEqual(['Email', 'PAN Id', 'Tehsil', 'Whole row']);
    expect(within(summary).getByText('1-100 of 1,000')).toBeInTheDocument();

    const pages = within(summary).getByRole('navigation', { name: 'Pages of errors' });
    await user.click(within(pages).getByRole('button', { name: 'Go to page 3' }));
    await waitFor(() => expect(within(rows()[0]).getAllByRole('cell')[0]).toHaveTextContent('202'));
    expect(within(summary).getByText('201-300 of 1,000')).toBeInTheDocument();
    expect(fetchesOf(fetch, 'import/fetch/job-1')).toContain('errorsPage=3&errorsLimit=100');

    // The CSV is the server's, of every kept error.
    await user.click(within(summary).getByRole('button', { name: 'Download errors (CSV)' }));
    await waitFor(() => expect(saved).toEqual(['retailers-errors.csv']));
    expect(fetchesOf(fetch, 'import/fetch/job-1')).toContain('format=csv');
  });

  it('says the same in Hindi', async () => {
    stubServer();
    await checkAFile('hi');
    const summary = await screen.findByTestId('import-summary');
    expect(within(summary).getByTestId('import-errors-total')).toHaveTextContent(
      'कुल 1,500 त्रुटियाँ। केवल पहली 1,000 रखी गई हैं: उन पंक्तियों को ठीक करें और बाकी देखने के लिए फ़ाइल फिर से जाँचें।',
    );
    expect(within(summary).getByRole('navigation', { name: 'त्रुटियों के पृष्ठ' })).toBeInTheDocument();
    const table = within(summary).getByRole('table', { name: 'त्रुटियों वाली पंक्तियाँ' });
    const columns = within(table)
      .getAllByRole('row')
      .slice(1, 5)
      .map((row) => within(row).getAllByRole('cell')[1].textContent);
    expect(columns).toEqual(['ईमेल', 'पैन संख्या', 'तहसील', 'पूरी पंक्ति']);
  });

  it('shows the refusal of a second running import in the chosen language', async () => {
    stubServer({ running: true });
    await checkAFile('hi');
    expect(
      await screen.findByText('आपका एक आयात अभी चल रहा है। उसके पूरा होने तक रुकें, फिर अगली फ़ाइल भेजें।', {
        exact: false,
      }),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('import-summary')).not.toBeInTheDocument();
  });

  it('has a label for every column of every template, in English and Hindi', () => {
    for (const column of new Set(Object.values(IMPORT_COLUMNS).flat())) {
      expect(en.app.imports.columns, column).toHaveProperty([column]);
      expect(hi.app.imports.columns[column as keyof typeof hi.app.imports.columns], column).toMatch(
        /^[\u0900-\u097F ]+$/,
      );
    }
  });
});
