import { Box, FormHelperText, Typography } from '@mui/material';
import { SelectInput, TextInput, useTranslate } from 'react-admin';
import { useFormState, useWatch } from 'react-hook-form';
import { fromHundredths } from '../../../shared/decimal';
import {
  COMMISSION_FIELDS,
  commissionTotal,
  productSchema,
  REQUEST_METHODS,
  URL_DATA_IDENTIFIERS,
} from '../../../shared/schemas/catalog';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { enumChoices } from '../../i18n/enums';
import { sharedKey } from '../../i18n/sharedMessages';
import { LookupInput } from '../../lists/LookupInput';
import { type RecordDialogProps, RecordFormDialog } from '../../lists/RecordDialog';

const methodChoices = REQUEST_METHODS.map((id) => ({ id, name: id }));
/** The account types by their names in the chosen language (the codes in English, as the seed writes them). */
const identifierChoices = enumChoices('accountType', URL_DATA_IDENTIFIERS);
const decimal = { inputMode: 'decimal' as const };
/** The rule of the five commissions' sum: the shared schema reports it under `commission`, a field of no input. */
const TOTAL_ERROR = 'commission';

const validate = schemaValidator(productSchema);

/**
 * The running total under the five commissions (the shared `commissionTotal`) and, once one is touched or the form
 * submitted, the rule's message when they do not make 100.
 */
const CommissionTotal = () => {
  const translate = useTranslate();
  const values = useWatch({ name: [...COMMISSION_FIELDS] }) as unknown[];
  const { touchedFields, submitCount } = useFormState({ name: [...COMMISSION_FIELDS, TOTAL_ERROR] });
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
          {translate(sharedKey('catalog', 'commissionTotal'))}
        </FormHelperText>
      )}
    </Box>
  );
};

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** Amount and commissions as typed ('40.5') -> JSON numbers on the wire; the rest as it is. */
const toProductBody = (values: Record<string, unknown>) => ({
  ...values,
  ...Object.fromEntries(
    ['amount', ...COMMISSION_FIELDS].map((field) => [field, Number(String(values[field]).trim())]),
  ),
});

/**
 * Seed sections 2 and 5, product modal (large): provider, product name, the five commissions (summing to 100),
 * amount, URL, request method (GET/POST) and request data identifier (default: the first), checked by the shared
 * product schema. The success toast is the server's message ('Product Created Successfully!').
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
      validate={validate}
      transform={toProductBody}
      success={{
        created: sharedKey('catalog', 'productCreated'),
        updated: sharedKey('catalog', 'productUpdated'),
      }}
    >
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <LookupInput
          source="providerId"
          reference="providers"
          label="resources.products.fields.providerId"
          validate={requiredMark}
        />
        <TextInput source="name" validate={requiredMark} />
      </Box>
      <Typography variant="subtitle2" component="h2" sx={{ mt: 1 }}>
        {translate('app.products.commissions')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' } }}>
        {COMMISSION_FIELDS.map((field) => (
          <TextInput key={field} source={field} slotProps={{ htmlInput: decimal }} validate={requiredMark} />
        ))}
      </Box>
      <CommissionTotal />
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextInput source="amount" slotProps={{ htmlInput: decimal }} validate={requiredMark} />
        <TextInput source="url" type="url" validate={requiredMark} />
        <SelectInput source="urlParams.reqType" choices={methodChoices} translateChoice={false} />
        <SelectInput source="urlParams.data" choices={identifierChoices} />
      </Box>
    </RecordFormDialog>
  );
};
