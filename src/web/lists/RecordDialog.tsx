import { type ReactNode, useMemo } from 'react';
import {
  type RaRecord,
  useCreate,
  useNotify,
  useRefresh,
  useResourceContext,
  useUpdate,
  type ValidateForm,
} from 'react-admin';
import { FormDialog } from '../forms/FormDialog';
import { serverFieldErrors } from '../forms/serverErrors';

/** What a list hands its create/edit modal. */
export interface RecordDialogProps {
  open: boolean;
  /** The row being edited; none when creating. */
  record?: RaRecord;
  /** `saved` is true after a successful create/update (seed section 4: the modal closes with a true result). */
  onClose: (saved: boolean) => void;
}

type Values = Record<string, unknown>;

export interface RecordFormDialogProps extends RecordDialogProps {
  /** i18n namespace holding `createTitle` and `updateTitle`, e.g. 'app.states'. */
  texts: string;
  /** The form's initial values from the row (only the fields the server writes). */
  toValues: (record?: RaRecord) => Values;
  /** Form values -> request body. */
  transform?: (values: Values) => Values;
  /**
   * Success toasts (catalogue keys): the seed's 'X Created Successfully!' / 'X Updated Successfully!'. `created` may
   * depend on the values sent (the Employees form can create an admin).
   */
  success: { created: string | ((values: Values) => string); updated: string };
  /** The form's validation: the shared schema of the payload (forms/schemaValidator). */
  validate: ValidateForm;
  /** A server refusal's param -> the form field it is about (default: the same name). */
  fieldOf?: (param: string) => string;
  maxWidth?: 'xs' | 'sm' | 'md';
  children: ReactNode;
}

/**
 * The create/edit modal of a list (seed section 2): 'Create New X' / 'Update X' with a Create / Update button.
 * Saves go through react-admin's useCreate / useUpdate, so the query cache and the loading bar know about them.
 * Field messages show once a field is touched (mode onTouched) or after a submit; an invalid submit toasts
 * 'Invalid data!' (react-admin's invalid-form notice, see en.ts). A server refusal shows in the 'Error!!!' toast
 * and on the field it names, and keeps the modal open. After a save: the success toast, a list refresh, and
 * onClose(true). Escape and Cancel close it without saving.
 */
export const RecordFormDialog = ({
  open,
  record,
  onClose,
  texts,
  toValues,
  transform = (values) => values,
  success,
  validate,
  fieldOf,
  maxWidth = 'sm',
  children,
}: RecordFormDialogProps) => {
  const resource = useResourceContext();
  const notify = useNotify();
  const refresh = useRefresh();
  const [create] = useCreate();
  const [update] = useUpdate();
  const isEdit = record?.id !== undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the initial values depend on the row only
  const initial = useMemo(() => toValues(record), [record]);

  const save = async (values: Values) => {
    if (!resource) return;
    const data = transform(values);
    try {
      if (isEdit)
        await update(resource, { id: record.id, data, previousData: record }, { returnPromise: true });
      else await create(resource, { data }, { returnPromise: true });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      return serverFieldErrors(error, fieldOf);
    }
    const created = typeof success.created === 'function' ? success.created(values) : success.created;
    notify(isEdit ? success.updated : created, { type: 'success' });
    refresh();
    onClose(true);
  };

  return (
    <FormDialog
      open={open}
      onClose={() => onClose(false)}
      title={isEdit ? `${texts}.updateTitle` : `${texts}.createTitle`}
      submitLabel={isEdit ? 'app.list.update' : 'app.list.create'}
      maxWidth={maxWidth}
      record={initial}
      onSubmit={save}
      validate={validate}
    >
      {children}
    </FormDialog>
  );
};
