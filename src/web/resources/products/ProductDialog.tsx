import { Box, FormHelperText, Typography } from '@mui/material';
import { SelectInput, TextInput, useTranslate } from 'react-admin';
import { useFormState, useWatch } from 'react-hook-form';
import { fromHundredths } from '../../../shared/decimal';
import {
  CATALOG_MSG,
  COMMISSION_FIELDS,
  commissionTotal,
  REQUEST_METHODS,
  URL_DATA_IDENTIFIERS,
} from '../../../shared/schemas/catalog';
import { LookupInput } from '../../lists/LookupInput';
import { type RecordDialogProps, RecordFormDialog } from '../../lists/RecordDialog';
import { type ProductFormValues, toProductBody, validateProduct } from './validation';

const methodChoices = REQUEST_METHODS.map((id) => ({ id, name: id }));
const identifierChoices = URL_DATA_IDENTIFIERS.map((id) => ({ id, name: id }));
const decimal = { inputMode: 'decimal' as const };

/** The running total under the five commissions and, once one is touched or the form submitted, the rule. */
const CommissionTotal = () => {
  const translate = useTranslate();
  const values = useWatch({ name: [...COMMISSION_FIELDS] }) as unknown[];
  const { touchedFields, submitCount } = useFormState({ name: [...COMMISSION_FIELDS] });
  const total = commissionTotal(Object.fromEntries(COMMISSION_FIELDS.map((field, i) => [field, values[i]])));
  const touched = submitCount > 0 || COMMISSION_FIELDS.some((field) => touchedFields[field]);
  const wrong = touched && total !== null && total !== 10000;
  return (
    <Box sx={{ mb: 1 }}>
      <FormHelperText sx={{ mx: 0 }}>
        {translate('app.products.commissionTotal', { total: total === null ? '—' : fromHundredths(total) })}
      </FormHelperText>
      {wrong && (
        <FormHelperText error role="alert" sx={{ mx: 0 }}>
          {CATALOG_MSG.commissionTotal}
        </FormHelperText>
      )}
    </Box>
  );
};

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/**
 * Seed sections 2 and 5, product modal (large): provider, product name, the five commissions (summing to 100),
 * amount, URL, request method (GET/POST) and request data identifier (default: the first). The success toast is
 * the server's message.
 */
export const ProductDialog = (props: RecordDialogProps) => {
  const translate = useTranslate();
  return (
    <RecordFormDialog
      {...props}
      texts="app.products"
      maxWidth="md"
      toValues={(record) => ({
        providerId: record?.providerId ?? null,
        name: record?.name ?? '',
        ...Object.fromEntries(COMMISSION_FIELDS.map((field) => [field, text(record?.[field])])),
        amount: text(record?.amount),
        url: record?.url ?? '',
        urlParams: {
          reqType: record?.urlParams?.reqType ?? REQUEST_METHODS[0],
          data: record?.urlParams?.data ?? URL_DATA_IDENTIFIERS[0],
        },
      })}
      validate={(values) => validateProduct(values as ProductFormValues)}
      transform={(values) => toProductBody(values as ProductFormValues)}
      success="server"
    >
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <LookupInput source="providerId" reference="providers" label="resources.products.fields.providerId" />
        <TextInput source="name" />
      </Box>
      <Typography variant="subtitle2" component="h2" sx={{ mt: 1 }}>
        {translate('app.products.commissions')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' } }}>
        {COMMISSION_FIELDS.map((field) => (
          <TextInput key={field} source={field} slotProps={{ htmlInput: decimal }} />
        ))}
      </Box>
      <CommissionTotal />
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextInput source="amount" slotProps={{ htmlInput: decimal }} />
        <TextInput source="url" type="url" />
        <SelectInput source="urlParams.reqType" choices={methodChoices} />
        <SelectInput source="urlParams.data" choices={identifierChoices} />
      </Box>
    </RecordFormDialog>
  );
};
