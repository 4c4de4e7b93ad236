import { TextInput, usePermissions } from 'react-admin';
import { UserType } from '../../../shared/enums';
import { requiredMark } from '../../forms/schemaValidator';
import type { RecordDialogProps } from '../../lists/RecordDialog';
import { RetailerInput } from '../people/inputs';
import { UserFormDialog } from '../people/UserFormDialog';

const digits = { inputMode: 'numeric' as const, maxLength: 14 };
const capitals = { maxLength: 10, style: { textTransform: 'uppercase' as const } };

/**
 * Seed sections 2 and 5: the shared user fields, Aadhar id (12 digits, Verhoeff-checked), PAN id (AAAAA9999A) and
 * an optional retailer typeahead. A retailer's customers are always its own, so a retailer sees no retailer
 * input. On update the Aadhar number shows masked; left as it is, the stored number is kept.
 */
export const CustomerDialog = (props: RecordDialogProps) => {
  const { permissions } = usePermissions();
  const isEdit = props.record?.id !== undefined;
  return (
    <UserFormDialog {...props} type={UserType.CUSTOMER} texts="app.customers">
      <TextInput
        source="aadharId"
        autoComplete="off"
        slotProps={{ htmlInput: digits }}
        helperText={isEdit ? 'app.customers.aadharKeep' : undefined}
        validate={isEdit ? undefined : requiredMark}
      />
      <TextInput
        source="panId"
        autoComplete="off"
        slotProps={{ htmlInput: capitals }}
        validate={requiredMark}
      />
      {permissions !== UserType.RETAILER && <RetailerInput />}
    </UserFormDialog>
  );
};
