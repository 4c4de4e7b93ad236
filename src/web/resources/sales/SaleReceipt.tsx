import DownloadIcon from '@mui/icons-material/Download';
import PrintIcon from '@mui/icons-material/Print';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import ShareIcon from '@mui/icons-material/Share';
import { Button, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type MouseEvent, useId, useState } from 'react';
import {
  type Identifier,
  type RaRecord,
  useCanAccess,
  useDataProvider,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useDocumentLanguage } from '../../i18n/format';
import { saveFile } from '../../layout/saveFile';
import { RowActionButton } from '../../lists/RowActions';
import type { AppDataProvider } from '../../providers/dataProvider';
import { blankTab } from './reopen';

/** The receipt's file name from the sale's reference (letters, digits, dots, dashes and underscores). */
export const receiptFileName = (code: string) => `receipt-${code.replace(/[^A-Za-z0-9._-]/g, '-')}.pdf`;

/**
 * Whether this browser shares files through the phone's share sheet (the Web Share API, level 2). Only on a touch
 * screen: a desktop browser that can share still downloads, which is what a person at a desk expects.
 */
export const canShareFiles = (file?: File) =>
  typeof navigator.share === 'function' &&
  typeof navigator.canShare === 'function' &&
  (window.matchMedia?.('(pointer: coarse)').matches ?? false) &&
  (!file || navigator.canShare({ files: [file] }));

/**
 * A sale's receipt (`bought_products/receipt/:id`): the printable page opened in a new tab and the print dialog
 * asked for, and the PDF shared (a phone) or downloaded. The PDF is fetched as soon as the menu opens, so a share
 * runs inside the tap that asked for it (browsers share only then).
 */
const useSaleReceipt = (sale: { id: Identifier; utmCode: string }, menuOpen: boolean) => {
  const translate = useTranslate();
  const notify = useNotify();
  const lang = useDocumentLanguage();
  const dataProvider = useDataProvider<AppDataProvider>();
  const failed = (error: Error) => notify(error.message, { type: 'error' });

  const pdf = useQuery({
    queryKey: ['sales', 'receipt', { id: String(sale.id), format: 'pdf', lang }],
    queryFn: async () => {
      const blob = await dataProvider.getSaleReceipt(sale.id, 'pdf', lang);
      return new File([await blob.arrayBuffer()], receiptFileName(sale.utmCode), { type: 'application/pdf' });
    },
    enabled: menuOpen,
    retry: false,
    gcTime: 0,
  });

  const page = useMutation({
    mutationFn: async (tab: Window | null) => ({
      tab,
      html: await (await dataProvider.getSaleReceipt(sale.id, 'html', lang)).text(),
    }),
    onSuccess: ({ tab, html }) => {
      if (!tab || tab.closed) {
        notify('app.sales.receiptBlocked', { type: 'warning' });
        return;
      }
      // The panel's own document, written into the tab the click opened (same origin, no script in it).
      tab.document.open();
      tab.document.write(html);
      tab.document.close();
      tab.focus();
      tab.print();
    },
    onError: (error, tab) => {
      tab?.close();
      failed(error);
    },
  });

  const deliver = async (file: File) => {
    if (!canShareFiles(file)) {
      saveFile(file, file.name);
      return;
    }
    try {
      await navigator.share({
        files: [file],
        title: translate('app.sales.receiptTitle', { code: sale.utmCode }),
      });
    } catch (error) {
      // The person closed the share sheet: nothing to do. Any other refusal: the file is downloaded instead.
      if ((error as Error).name !== 'AbortError') saveFile(file, file.name);
    }
  };

  const file = useMutation({
    mutationFn: async () => (await pdf.refetch({ throwOnError: true })).data as File,
    onSuccess: deliver,
    onError: failed,
  });

  return {
    /** Opens the tab inside the click itself (a popup blocker refuses `window.open` after an await). */
    print: () => page.mutate(blankTab()),
    /** The PDF already fetched is shared at once; otherwise it is fetched first. */
    pdf: () => (pdf.data ? deliver(pdf.data) : file.mutate()),
    busy: page.isPending || file.isPending,
  };
};

/** The menu of a receipt: Print receipt, and Download PDF (Share PDF on a phone). */
const ReceiptMenu = ({
  sale,
  anchor,
  onClose,
  menuId,
}: {
  sale: { id: Identifier; utmCode: string };
  anchor: HTMLElement | null;
  onClose: () => void;
  menuId: string;
}) => {
  const translate = useTranslate();
  const receipt = useSaleReceipt(sale, anchor !== null);
  const share = canShareFiles();
  const act = (run: () => void) => () => {
    run();
    onClose();
  };
  return (
    <Menu
      id={menuId}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      // The menu sits in a table row that opens the sale: its clicks stay in the menu.
      onClick={(event) => event.stopPropagation()}
      slotProps={{ list: { 'aria-label': translate('app.sales.receiptRow', { code: sale.utmCode }) } }}
    >
      <MenuItem onClick={act(receipt.print)} disabled={receipt.busy}>
        <ListItemIcon>
          <PrintIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>{translate('app.sales.printReceipt')}</ListItemText>
      </MenuItem>
      <MenuItem onClick={act(receipt.pdf)} disabled={receipt.busy}>
        <ListItemIcon>
          {share ? <ShareIcon fontSize="small" /> : <DownloadIcon fontSize="small" />}
        </ListItemIcon>
        <ListItemText>{translate(share ? 'app.sales.sharePdf' : 'app.sales.downloadPdf')}</ListItemText>
      </MenuItem>
    </Menu>
  );
};

/** The menu's anchor and its opening, for a button that opens it. */
const useReceiptMenu = () => {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  return {
    anchor,
    menuId,
    open: (event: MouseEvent<HTMLElement>) => {
      event.stopPropagation();
      setAnchor(event.currentTarget);
    },
    close: () => setAnchor(null),
  };
};

/** Receipt on a sale's page, for whoever may read receipts (the role table's `saleReceipts`). */
export const ReceiptButton = ({ sale }: { sale: { id: Identifier; utmCode: string } }) => {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'saleReceipts', action: 'read' });
  const menu = useReceiptMenu();
  if (!canAccess) return null;
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<ReceiptLongIcon />}
        aria-haspopup="menu"
        aria-controls={menu.anchor ? menu.menuId : undefined}
        aria-expanded={menu.anchor ? 'true' : undefined}
        onClick={menu.open}
      >
        {translate('app.sales.receipt')}
      </Button>
      <ReceiptMenu sale={sale} anchor={menu.anchor} onClose={menu.close} menuId={menu.menuId} />
    </>
  );
};

/** Receipt on a Sales list row. */
export const ReceiptRowButton = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  const menu = useReceiptMenu();
  const sale = { id: record.id, utmCode: String(record.utmCode ?? '') };
  return (
    <>
      <RowActionButton
        label="app.sales.receipt"
        ariaLabel={translate('app.sales.receiptRow', { code: sale.utmCode })}
        icon={<ReceiptLongIcon fontSize="small" />}
        onClick={menu.open}
      />
      <ReceiptMenu sale={sale} anchor={menu.anchor} onClose={menu.close} menuId={menu.menuId} />
    </>
  );
};
