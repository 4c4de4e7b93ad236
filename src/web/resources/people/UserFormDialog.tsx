import type { ReactNode } from 'react';
import type { UserType } from '../../../shared/enums';
import { USER_SAVED_MSG } from '../../../shared/schemas/users';
import { type RecordDialogProps, RecordFormDialog } from '../../lists/RecordDialog';
import { DistrictTehsilInputs, UserTextFields } from './inputs';
import { userFormValues, validateUser } from './validation';

export interface UserFormDialogProps extends RecordDialogProps {
  type: UserType;
  /** i18n namespace with createTitle / updateTitle, e.g. 'app.retailers'. */
  texts: string;
  /** The type's own inputs, after the shared ones. */
  children?: ReactNode;
}

/**
 * The create/edit modal of every user type (seed section 2): name, email, mobile, user name, district and tehsil,
 * then the type's own inputs. Validation follows the shared schemas (validateUser); the dataProvider turns the
 * flat values into the account/create|update body. Success toasts: USER_SAVED_MSG of the type.
 */
export const UserFormDialog = ({ type, texts, children, ...props }: UserFormDialogProps) => {
  const action = props.record?.id !== undefined ? 'update' : 'create';
  return (
    <RecordFormDialog
      {...props}
      texts={texts}
      toValues={(record) => userFormValues(type, record)}
      validate={(values) => validateUser(type, values, action)}
      success={USER_SAVED_MSG[type]}
    >
      <UserTextFields />
      <DistrictTehsilInputs />
      {children}
    </RecordFormDialog>
  );
};
