import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { type MouseEvent, useId, useMemo, useState } from 'react';
import {
  Form,
  type RaRecord,
  useCanAccess,
  useCreate,
  useDataProvider,
  useNotify,
  usePermissions,
  useTranslate,
} from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { UserType } from '../../../shared/enums';
import { titleCase } from '../../../shared/format';
import { ACCOUNT_TYPES, type AccountType, partnerCallFor } from '../../../shared/schemas/sales';
import { ChainedLookups } from '../../forms/ChainedLookups';
import { requiredMark } from '../../forms/schemaValidator';
import { sharedKey } from '../../i18n/sharedMessages';
import { type RowAction, RowActionButton } from '../../lists/RowActions';
import { type AppDataProvider, UnreadableAnswerError } from '../../providers/dataProvider';
import { getStoredUser } from '../../providers/session';

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
 * Seed section 4, Proceed: the partner call picked by the product's account type (`urlParams.data`), the utmCode
 * after the URL's last '=', `bought_products/create`, then the account-opening URL in a new tab. The tab is
 * opened blank inside the click itself (a popup blocker refuses `window.open` after an await) and sent to the
 * URL once it is known, or closed when a call fails; the modal stays open on failure (httpClient shows the
 * 'Error!!!' toast).
 */
const ProceedButton = ({ customer, product, onBlocked, onDone }: ProceedProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [create] = useCreate();
  const { permissions } = usePermissions();
  const { getValues } = useFormContext();
  const [busy, setBusy] = useState(false);

  const proceed = async (event: MouseEvent) => {
    // Enter in a field "clicks" this submit button too; the form itself submits nothing.
    event.preventDefault();
    if (busy) return;
    const { providerId, productId } = getValues();
    if (!providerId || !productId || !product) {
      notify(sharedKey('sales', 'selectBoth'), { type: 'warning' });
      return;
    }
    const tab = window.open('', '_blank');
    setBusy(true);
    try {
      const accountType = accountTypeOf(product);
      const opening = await dataProvider.openAccount(partnerCallFor(accountType), {
        accountType,
        productId: String(productId),
        customerId: String(customer.id),
      });
      const retailerId =
        customer.retailerId ?? (permissions === UserType.RETAILER ? getStoredUser()?._id : null) ?? null;
      await create(
        'sales',
        {
          data: {
            customerId: customer.id,
            retailerId,
            productId,
            utmCode: opening.utmCode,
            merchantCode: opening.merchantCode,
          },
        },
        { returnPromise: true },
      );
      notify(sharedKey('sales', 'saleRecorded'), { type: 'success' });
      if (tab && !tab.closed) {
        // The partner's page gets no handle on the panel.
        tab.opener = null;
        tab.location.href = opening.url;
        onDone();
      } else {
        onBlocked(opening.url);
      }
    } catch (error) {
      tab?.close();
      // An unusable 200 reads like a refusal: 'Error: ...' in the 'Error!!!' toast.
      notify(error instanceof UnreadableAnswerError ? `Error: ${error.message}` : (error as Error).message, {
        type: 'error',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      type="submit"
      variant="contained"
      onClick={proceed}
      disabled={busy}
      startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
    >
      {translate('app.sales.proceed')}
    </Button>
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

/** Select Product on every customer row, for the roles that may sell (role table `sales.create`). */
export const useSelectProductAction = (): RowAction[] => {
  const { canAccess } = useCanAccess({ resource: 'sales', action: 'create' });
  return useMemo(
    () => (canAccess ? [{ key: 'sell', render: (record) => <SelectProductButton record={record} /> }] : []),
    [canAccess],
  );
};
