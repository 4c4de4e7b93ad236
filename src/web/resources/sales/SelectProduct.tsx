import PointOfSaleIcon from '@mui/icons-material/PointOfSale';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type MouseEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  Form,
  type RaRecord,
  useCanAccess,
  useDataProvider,
  useNotify,
  usePermissions,
  useTranslate,
} from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { UserType } from '../../../shared/enums';
import { titleCase } from '../../../shared/format';
import { ACCOUNT_TYPES, type AccountType, partnerCallFor } from '../../../shared/schemas/sales';
import { ChainedLookups } from '../../forms/ChainedLookups';
import { requiredMark } from '../../forms/schemaValidator';
import { useFormat } from '../../i18n/format';
import { sharedKey } from '../../i18n/sharedMessages';
import { type RowAction, RowActionButton } from '../../lists/RowActions';
import {
  type AccountOpening,
  type AppDataProvider,
  type SaleCreateMeta,
  UnreadableAnswerError,
} from '../../providers/dataProvider';
import type { SaleRecord } from '../../providers/ledger';
import { getStoredUser, getToken } from '../../providers/session';
import { SALE_LIST_PATH } from './paths';
import { blankTab, sendTab, useReopenSale } from './reopen';

const accountTypeOf = (product: RaRecord): AccountType => {
  const data = product.urlParams?.data;
  return (ACCOUNT_TYPES as readonly string[]).includes(data) ? (data as AccountType) : ACCOUNT_TYPES[0];
};

/** The provider typeahead, then a product typeahead limited to that provider (seed section 2). */
const ProviderAndProduct = ({ onProduct }: { onProduct: (product: RaRecord | undefined) => void }) => (
  <ChainedLookups
    levels={[
      {
        source: 'providerId',
        reference: 'providers',
        label: 'app.sales.provider',
        validate: requiredMark,
        onChange: () => onProduct(undefined),
      },
      {
        source: 'productId',
        reference: 'products',
        label: 'app.sales.product',
        parentFilter: 'providerId',
        waitText: sharedKey('sales', 'noProvider'),
        validate: requiredMark,
        onChange: onProduct,
      },
    ]}
  />
);

interface ProceedProps {
  customer: RaRecord;
  product: RaRecord | undefined;
  /** The sale was recorded but the browser refused the tab: the URL to offer as a link. */
  onBlocked: (url: string) => void;
  onDone: () => void;
}

/**
 * One Proceed and its retries: one `Idempotency-Key`, and the partner's opening once it was given, so a retry
 * after a lost answer records the same sale (the server answers the first one) instead of a second opening.
 */
interface Attempt {
  key: string;
  productId: string;
  opening?: AccountOpening;
}

interface ProceedInput {
  productId: string;
  /** The person confirmed selling again while a sale of the product is PENDING. */
  again: boolean;
  signal: AbortSignal;
}

type ProceedOutcome = { kind: 'pending'; sale: SaleRecord } | { kind: 'sold'; opening: AccountOpening };

/** The call ended the session (react-admin toasts it and goes to sign-in): nothing more is sent or shown. */
class SessionEnded extends Error {}

const aborted = () => new DOMException('The sale was cancelled', 'AbortError');
const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * Seed section 4, Proceed: the partner call picked by the product's account type (`urlParams.data`), the utmCode
 * after the URL's last '=', `bought_products/create` with one `Idempotency-Key` per Proceed, then the
 * account-opening URL in the tab opened blank inside the click. Before the partner is called, a PENDING sale of the
 * same product to the same customer asks first (reopen it, or sell again). Closing the modal (Cancel) aborts the
 * call in flight and records nothing. A call that ends the session sends nothing more: react-admin's dataProvider
 * then logs out and answers `{ data }` with nothing in it, which is why each answer is checked before the next call.
 * The modal stays open on failure (the 'Error!!!' toast).
 */
const ProceedButton = ({ customer, product, onBlocked, onDone }: ProceedProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const { permissions } = usePermissions();
  const { getValues } = useFormContext();
  const attempt = useRef<Attempt | null>(null);
  // Set in the click, before any render: a second click in the same task finds it and sends nothing.
  const inFlight = useRef<{ controller: AbortController; tab: Window | null } | null>(null);
  const [pending, setPending] = useState<SaleRecord | null>(null);

  // Cancel (or any close) unmounts the modal's content: abort what is in flight and close its blank tab.
  useEffect(
    () => () => {
      inFlight.current?.controller.abort();
      inFlight.current?.tab?.close();
    },
    [],
  );

  const sell = useMutation({
    mutationFn: async ({ productId, again, signal }: ProceedInput): Promise<ProceedOutcome> => {
      const live = () => {
        if (signal.aborted) throw aborted();
        if (!getToken()) throw new SessionEnded();
      };
      if (!attempt.current || attempt.current.productId !== productId)
        attempt.current = { key: crypto.randomUUID(), productId };
      const current = attempt.current;
      if (!again && !current.opening) {
        const found = await dataProvider.getList<SaleRecord>('sales', {
          filter: { customerId: customer.id, productId, status: 'PENDING' },
          pagination: { page: 1, perPage: 1 },
          sort: { field: 'createdAt', order: 'DESC' },
          signal,
        });
        live();
        if (typeof found?.total !== 'number') throw new SessionEnded();
        if (found.data[0]) return { kind: 'pending', sale: found.data[0] };
      }
      if (!current.opening) {
        const accountType = accountTypeOf(product as RaRecord);
        const opening = await dataProvider.openAccount(
          partnerCallFor(accountType),
          { accountType, productId, customerId: String(customer.id) },
          { signal },
        );
        live();
        if (!opening?.utmCode || !opening.url) throw new SessionEnded();
        current.opening = opening;
      }
      const retailerId =
        customer.retailerId ?? (permissions === UserType.RETAILER ? getStoredUser()?._id : null) ?? null;
      const meta: SaleCreateMeta = { idempotencyKey: current.key, signal };
      const created = await dataProvider.create('sales', {
        data: {
          customerId: customer.id,
          retailerId,
          productId,
          utmCode: current.opening.utmCode,
          merchantCode: current.opening.merchantCode,
        },
        meta,
      });
      live();
      if (created?.data?.id === undefined) throw new SessionEnded();
      return { kind: 'sold', opening: current.opening };
    },
  });

  const run = (event: MouseEvent | null, again: boolean) => {
    // Enter in a field "clicks" this submit button too; the form itself submits nothing.
    event?.preventDefault();
    if (inFlight.current) return;
    const { providerId, productId } = getValues();
    if (!providerId || !productId || !product) {
      notify(sharedKey('sales', 'selectBoth'), { type: 'warning' });
      return;
    }
    const running = { controller: new AbortController(), tab: blankTab() };
    inFlight.current = running;
    setPending(null);
    sell.mutate(
      { productId: String(productId), again, signal: running.controller.signal },
      {
        onSuccess: (outcome) => {
          if (outcome.kind === 'pending') {
            running.tab?.close();
            setPending(outcome.sale);
            return;
          }
          attempt.current = null;
          void queryClient.invalidateQueries({ queryKey: ['sales'] });
          notify(sharedKey('sales', 'saleRecorded'), { type: 'success' });
          if (sendTab(running.tab, outcome.opening.url)) onDone();
          else onBlocked(outcome.opening.url);
        },
        onError: (error) => {
          running.tab?.close();
          if (isAbort(error) || error instanceof SessionEnded) return;
          // An unusable 200 reads like a refusal: 'Error: ...' in the 'Error!!!' toast.
          notify(error instanceof UnreadableAnswerError ? `Error: ${error.message}` : error.message, {
            type: 'error',
          });
        },
        onSettled: () => {
          if (inFlight.current === running) inFlight.current = null;
        },
      },
    );
  };

  const busy = sell.isPending;
  return (
    <>
      <Button
        type="submit"
        variant="contained"
        onClick={(event) => run(event, false)}
        disabled={busy}
        startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
      >
        {translate('app.sales.proceed')}
      </Button>
      {pending && (
        <PendingSaleDialog
          sale={pending}
          customerName={titleCase(customer.name)}
          onSellAgain={() => {
            setPending(null);
            run(null, true);
          }}
          onReopened={onDone}
          onClose={() => setPending(null)}
        />
      )}
    </>
  );
};

/** A second sale of a product the customer has PENDING: reopen that one, sell again, or stop. */
const PendingSaleDialog = ({
  sale,
  customerName,
  onSellAgain,
  onReopened,
  onClose,
}: {
  sale: SaleRecord;
  customerName: string;
  onSellAgain: () => void;
  onReopened: () => void;
  onClose: () => void;
}) => {
  const translate = useTranslate();
  const format = useFormat();
  const titleId = useId();
  const { reopen, isPending } = useReopenSale();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm">
      <DialogTitle id={titleId}>{translate('app.sales.pendingTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {translate('app.sales.pendingText', {
            name: customerName,
            product: titleCase(sale.product?.name),
            code: sale.utmCode,
            date: format.date(sale.createdAt),
          })}
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose}>{translate('app.list.cancel')}</Button>
        <Button onClick={onSellAgain}>{translate('app.sales.sellAgain')}</Button>
        <Button variant="contained" disabled={isPending} onClick={() => reopen(sale.id, onReopened)}>
          {translate('app.sales.reopen')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

export interface SelectProductDialogProps {
  customer: RaRecord;
  open: boolean;
  onClose: () => void;
}

/** Seed section 2: the large Select Product modal of a customer row. */
export const SelectProductDialog = ({ customer, open, onClose }: SelectProductDialogProps) => {
  const translate = useTranslate();
  const titleId = useId();
  const [product, setProduct] = useState<RaRecord | undefined>();
  const [blockedUrl, setBlockedUrl] = useState<string | null>(null);
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      {open && (
        <Form onSubmit={() => undefined} noValidate>
          <DialogTitle id={titleId}>{translate('app.sales.selectTitle')}</DialogTitle>
          <DialogContent>
            <Stack spacing={1} sx={{ pt: 1 }}>
              <Typography color="text.secondary">
                {translate('app.sales.forCustomer', { name: titleCase(customer.name) })}
              </Typography>
              {blockedUrl ? (
                <Alert severity="warning">
                  {translate('app.sales.tabBlocked')}{' '}
                  <Link href={blockedUrl} target="_blank" rel="noopener noreferrer" onClick={onClose}>
                    {translate('app.sales.openPage')}
                  </Link>
                </Alert>
              ) : (
                <ProviderAndProduct onProduct={setProduct} />
              )}
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            {blockedUrl ? (
              <Button onClick={onClose}>{translate('app.sales.close')}</Button>
            ) : (
              <>
                <Button onClick={onClose}>{translate('app.list.cancel')}</Button>
                <ProceedButton
                  customer={customer}
                  product={product}
                  onBlocked={setBlockedUrl}
                  onDone={onClose}
                />
              </>
            )}
          </DialogActions>
        </Form>
      )}
    </Dialog>
  );
};

export const SelectProductButton = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <RowActionButton
        label="app.sales.selectProduct"
        ariaLabel={translate('app.sales.selectProductRow', { name: titleCase(record.name) })}
        icon={<ShoppingCartIcon fontSize="small" />}
        onClick={() => setOpen(true)}
      />
      {open && <SelectProductDialog customer={record} open onClose={() => setOpen(false)} />}
    </>
  );
};

/** A customer row's sales: the sale list filtered by the customer (its PENDING ones reopen from there). */
const CustomerSalesButton = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <RowActionButton
      label="app.sales.customerSales"
      ariaLabel={translate('app.sales.customerSalesRow', { name: titleCase(record.name) })}
      icon={<PointOfSaleIcon fontSize="small" />}
      onClick={() =>
        navigate(`${SALE_LIST_PATH}?filter=${encodeURIComponent(JSON.stringify({ customerId: record.id }))}`)
      }
    />
  );
};

/**
 * Select Product on every customer row, for the roles that may sell (role table `sales.create`), and the
 * customer's sales for the roles that see sales.
 */
export const useSelectProductAction = (): RowAction[] => {
  const { canAccess } = useCanAccess({ resource: 'sales', action: 'create' });
  const { canAccess: canList } = useCanAccess({ resource: 'sales', action: 'list' });
  return useMemo(
    () => [
      ...(canAccess
        ? [{ key: 'sell', render: (record: RaRecord) => <SelectProductButton record={record} /> }]
        : []),
      ...(canList
        ? [{ key: 'sales', render: (record: RaRecord) => <CustomerSalesButton record={record} /> }]
        : []),
    ],
    [canAccess, canList],
  );
};
