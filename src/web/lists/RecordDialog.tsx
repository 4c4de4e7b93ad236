import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
} from '@mui/material';
import { type ReactNode, useId, useMemo } from 'react';
import {
  Form,
  type RaRecord,
  useDataProvider,
  useNotify,
  useRefresh,
  useResourceContext,
  useTranslate,
  type ValidateForm,
} from 'react-admin';
import { useFormState } from 'react-hook-form';

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
  /** Success toast: fixed texts, or 'server' to show the server's message (products). */
  success: { created: string; updated: string } | 'server';
  /** Form-level validation (replaces the inputs' own `validate`, a react-hook-form rule). */
  validate?: ValidateForm;
  maxWidth?: 'xs' | 'sm' | 'md';
  children: ReactNode;
}

const SubmitButton = ({ label }: { label: string }) => {
  const { isSubmitting } = useFormState();
  return (
    <Button
      type="submit"
      variant="contained"
      disabled={isSubmitting}
      startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
    >
      {label}
    </Button>
  );
};

/**
 * The create/edit modal of a list (seed section 2): 'Create New X' / 'Update X' with a Create / Update button.
 * Field messages show once a field is touched (mode onTouched) or after a submit; an invalid submit toasts
 * 'Invalid data!' (react-admin's invalid-form notice, see en.ts). Server refusals are toasted by httpClient and
 * keep the modal open. After a save: the success toast, a list refresh, and onClose(true).
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
  maxWidth = 'sm',
  children,
}: RecordFormDialogProps) => {
  const resource = useResourceContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider();
  const titleId = useId();
  const isEdit = record?.id !== undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the initial values depend on the row only
  const initial = useMemo(() => toValues(record), [record]);

  const save = async (values: Values) => {
    if (!resource) return;
    const data = transform(values);
    let result: { meta?: { message?: string } };
    try {
      result = isEdit
        ? await dataProvider.update(resource, { id: record.id, data, previousData: record })
        : await dataProvider.create(resource, { data });
    } catch {
      // httpClient already showed the refusal in the 'Error!!!' toast; the modal stays open.
      return;
    }
    const message = success === 'server' ? result.meta?.message : isEdit ? success.updated : success.created;
    if (message) notify(message, { type: 'success' });
    refresh();
    onClose(true);
  };

  return (
    <Dialog
      open={open}
      onClose={() => onClose(false)}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={maxWidth}
    >
      {open && (
        <Form record={initial} onSubmit={save} validate={validate} mode="onTouched" noValidate>
          <DialogTitle id={titleId}>
            {translate(isEdit ? `${texts}.updateTitle` : `${texts}.createTitle`)}
          </DialogTitle>
          <DialogContent>
            <Stack spacing={0.5} sx={{ pt: 1 }}>
              {children}
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={() => onClose(false)}>{translate('app.list.cancel')}</Button>
            <SubmitButton label={translate(isEdit ? 'app.list.update' : 'app.list.create')} />
          </DialogActions>
        </Form>
      )}
    </Dialog>
  );
};
