import { type ReactNode, useMemo } from 'react';
import type { UserType } from '../../../shared/enums';
import { sharedKey } from '../../i18n/sharedMessages';
import { type RecordDialogProps, RecordFormDialog } from '../../lists/RecordDialog';
import { DistrictTehsilInputs, UserTextFields } from './inputs';
import { userFieldOf, userFormValues, userValidator } from './validation';

export interface UserFormDialogProps extends RecordDialogProps {
  type: UserType;
  /** i18n namespace with createTitle / updateTitle, e.g. 'app.retailers'. */
  texts: string;
  /** The type's own inputs, after the shared ones. */
  children?: ReactNode;
  /** The type a create makes from its values, when the form lets an admin choose (Employees: another admin). */
  createdType?: (values: Record<string, unknown>) => UserType;
  /** The create's toast, when it is not the type's 'X Created Successfully!' (another admin only waits). */
  createdMessage?: (values: Record<string, unknown>) => string | undefined;
}

/**
 * The create/edit modal of every user type (seed section 2): name, email, mobile, user name, district and tehsil,
 * then the type's own inputs. Validation is the shared schema of the type; the dataProvider turns the flat values
 * into the account/create|update body. Success toasts: the seed's texts of the type (USER_SAVED_MSG).
 */
export const UserFormDialog = ({
  type,
  texts,
  children,
  createdType,
  createdMessage,
  ...props
}: UserFormDialogProps) => {
  const action = props.record?.id !== undefined ? 'update' : 'create';
  const validate = useMemo(() => userValidator(type, action), [type, action]);
  return (
    <RecordFormDialog
      {...props}
      texts={texts}
      toValues={(record) => userFormValues(type, record)}
      validate={validate}
      fieldOf={userFieldOf}
      success={{
        created: (values) =>
          createdMessage?.(values) ?? sharedKey('user', `created${createdType?.(values) ?? type}`),
        updated: sharedKey('user', `updated${type}`),
      }}
    >
      <UserTextFields />
      <DistrictTehsilInputs />
      {children}
    </RecordFormDialog>
  );
};
