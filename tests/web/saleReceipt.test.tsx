import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { onTestFinished } from 'vitest';
import { UserType } from '../../src/shared/enums';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { SaleList } from '../../src/web/resources/sales/SaleList';
import { SalePage } from '../../src/web/resources/sales/SalePage';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';
import { IDS, SALE_POSTINGS, wireSale } from './salesFixtures';
import { stubServer } from './salesServer';

// A sale's receipt (issue 43): the sale's page and its Sales row offer Receipt, which prints the receipt page
// (`bought_products/receipt/:id`, html) and downloads its PDF, or shares it on a phone.

const login = (type: UserType) => {
  const user = wireUser({ type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const RECEIPT_HTML =
  '<!doctype html><html lang="en"><title>Receipt UTM12345 - Tierdesk</title><p>Tierdesk</p></html>';
const PDF_BYTES = '%PDF-1.7 receipt';

/** The sale, the list, and its receipt (or the refusal `receipt` gives). */
const receiptServer = (receipt?: () => Response) =>
  stubServer((request) => {
    if (request.path === `bought_products/receipt/${IDS.sale}`) {
      if (receipt) return receipt();
      return request.query.get('format') === 'pdf'
        ? new Response(PDF_BYTES, { status: 200, headers: { 'Content-Type': 'application/pdf' } })
        : new Response(RECEIPT_HTML, {
            status: 200,
            headers: { 'Content-Type': 'text/html; charset=utf-8' },
          });
    }
    if (request.path !== 'bought_products/fetch') return undefined;
    if (request.query.get('_id'))
      return jsonResponse(200, {
        result: { boughtProducts: [wireSale({ postings: SALE_POSTINGS })], totalCounts: 1 },
      });
    return jsonResponse(200, { result: { boughtProducts: [wireSale()], totalCounts: 1 } });
  });

const Where = () => <output aria-label="path">{useLocation().pathname}</output>;

const renderAt = (path: string, locale?: 'en' | 'hi') =>
  render(
    renderInAdmin(
      <>
        <Routes>
          <Route path="/sale/list" element={<SaleList />} />
          <Route path="/sale/:id" element={<SalePage />} />
        </Routes>
        <Where />
      </>,
      { path, dataProvider: createDataProvider(), locale },
    ),
  );

/** A tab as window.open gives it: its document is written, then printed. */
const fakeTab = () => {
  const written: string[] = [];
  const tab = {
    closed: false,
    document: { open: vi.fn(), write: vi.fn((html: string) => written.push(html)), close: vi.fn() },
    focus: vi.fn(),
    print: vi.fn(),
    close: vi.fn(),
  };
  return { tab, written };
};

/** Downloads through a link: the file names clicked, and the blobs behind them. */
const catchDownloads = () => {
  const files: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  // jsdom has no object URLs: these stand in for the test only.
  const { createObjectURL, revokeObjectURL } = URL;
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:receipt-${blobs.size}`;
    blobs.set(url, blob);
    return url;
  });
  URL.revokeObjectURL = vi.fn();
  onTestFinished(() => {
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    files.push({ name: this.download, blob: blobs.get(this.getAttribute('href') ?? '') as Blob });
  });
  return files;
};

/** A phone: a coarse pointer and the Web Share API with files. */
const onAPhone = () => {
  const shared: ShareData[] = [];
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: query === '(pointer: coarse)',
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  );
  vi.stubGlobal('navigator', {
    ...navigator,
    canShare: (data: ShareData) => (data.files?.length ?? 0) > 0,
    share: vi.fn(async (data: ShareData) => {
      shared.push(data);
    }),
  });
  return shared;
};

describe('Receipt', () => {
  it("prints the receipt page from the sale's page, in a tab opened by the click", async () => {
    login(UserType.RETAILER);
    const api = receiptServer();
    const { tab, written } = fakeTab();
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const user = userEvent.setup();
    renderAt(`/sale/${IDS.sale}`);
    await user.click(await screen.findByRole('button', { name: 'Receipt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Print receipt' }));
    await waitFor(() => expect(tab.print).toHaveBeenCalled());
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(written).toEqual([RECEIPT_HTML]);
    expect(tab.document.close).toHaveBeenCalled();
    const asked = api.requests.find(
      (r) => r.path === `bought_products/receipt/${IDS.sale}` && r.query.get('format') === 'html',
    );
    expect(asked?.headers.get('X-auth-token')).toBe('bearer tok-1');
    // The page in the panel's language (English here).
    expect(asked?.query.get('lang')).toBe('en');
    // The menu has closed.
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('downloads the PDF on a computer', async () => {
    login(UserType.ADMIN);
    const api = receiptServer();
    const files = catchDownloads();
    const user = userEvent.setup();
    renderAt(`/sale/${IDS.sale}`);
    await user.click(await screen.findByRole('button', { name: 'Receipt' }));
    expect(screen.queryByRole('menuitem', { name: 'Share PDF' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('menuitem', { name: 'Download PDF' }));
    await waitFor(() => expect(files).toHaveLength(1));
    expect(files[0].name).toBe('receipt-UTM12345.pdf');
    expect(files[0].blob.type).toBe('application/pdf');
    expect(files[0].blob.size).toBe(PDF_BYTES.length);
    const asked = api.requests.filter((r) => r.path === `bought_products/receipt/${IDS.sale}`);
    expect(asked.map((r) => Object.fromEntries(r.query))).toEqual([{ format: 'pdf', lang: 'en' }]);
  });

  it('downloads the PDF in Hindi when the panel is in Hindi', async () => {
    login(UserType.ADMIN);
    const api = receiptServer();
    const files = catchDownloads();
    const user = userEvent.setup();
    renderAt(`/sale/${IDS.sale}`, 'hi');
    await user.click(await screen.findByRole('button', { name: 'रसीद' }));
    await user.click(await screen.findByRole('menuitem', { name: 'PDF डाउनलोड करें' }));
    await waitFor(() => expect(files).toHaveLength(1));
    const asked = api.requests.filter((r) => r.path === `bought_products/receipt/${IDS.sale}`);
    expect(asked.map((r) => Object.fromEntries(r.query))).toEqual([{ format: 'pdf', lang: 'hi' }]);
  });

  it('shares the PDF on a phone (Web Share API), from the Sales row, without opening the sale', async () => {
    login(UserType.RETAILER);
    receiptServer();
    const shared = onAPhone();
    const files = catchDownloads();
    const user = userEvent.setup();
    renderAt('/sale/list');
    await user.click(await screen.findByRole('button', { name: 'Receipt of UTM12345' }));
    const share = await screen.findByRole('menuitem', { name: 'Share PDF' });
    await user.click(share);
    await waitFor(() => expect(shared).toHaveLength(1));
    const [file] = shared[0].files ?? [];
    expect(file.name).toBe('receipt-UTM12345.pdf');
    expect(file.type).toBe('application/pdf');
    expect(shared[0].title).toBe('Receipt UTM12345');
    expect(files).toEqual([]);
    expect(screen.getByRole('status', { name: 'path' })).toHaveTextContent('/sale/list');
  });

  it("shows the server's refusal and closes the tab it opened", async () => {
    login(UserType.RETAILER);
    receiptServer(() => jsonResponse(404, { message: 'Sale not found' }));
    const { tab } = fakeTab();
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const user = userEvent.setup();
    renderAt('/sale/list');
    await user.click(await screen.findByRole('button', { name: 'Receipt of UTM12345' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Print receipt' }));
    expect(await screen.findByText('Error: Sale not found')).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
    expect(tab.print).not.toHaveBeenCalled();
  });

  it('says so when the browser blocks the tab', async () => {
    login(UserType.EMPLOYEE);
    receiptServer();
    vi.spyOn(window, 'open').mockReturnValue(null);
    const user = userEvent.setup();
    renderAt(`/sale/${IDS.sale}`);
    await user.click(await screen.findByRole('button', { name: 'Receipt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Print receipt' }));
    expect(
      await screen.findByText(
        'The browser blocked the receipt’s tab: allow pop-ups for this site, then try again',
      ),
    ).toBeInTheDocument();
  });
});
