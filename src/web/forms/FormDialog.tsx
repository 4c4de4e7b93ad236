import {
  Button,
  type ButtonProps,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
} from '@mui/material';
import { type ReactNode, useCallback, useId } from 'react';
import { Form, type FormProps, useTranslate } from 'react-admin';
import { SubmitButton } from './SubmitButton';

/** The controls a person fills in: text fields, selects and typeaheads. */
const FIELDS = 'input, textarea, select, [role="combobox"]';

/** The first field a person can reach with Tab (not a select's hidden input, nor a disabled one). */
export const firstField = (root: ParentNode): HTMLElement | undefined =>
  Array.from(root.querySelectorAll<HTMLElement>(FIELDS)).find(
    (element) =>
      element.tabIndex >= 0 &&
      !element.hasAttribute('disabled') &&
      element.getAttribute('aria-hidden') !== 'true' &&
      (element as HTMLInputElement).type !== 'hidden',
  );

export interface FormDialogProps
  extends Pick<FormProps, 'record' | 'defaultValues' | 'onSubmit' | 'validate'> {
  open: boolean;
  /** Escape, the backdrop and Cancel. Without it the dialog stays until its form is sent, and has no Cancel. */
  onClose?: () => void;
  /** Catalogue key of the title. */
  title: string;
  /** Catalogue key of the submit button. */
  submitLabel: string;
  submitColor?: ButtonProps['color'];
  /** Catalogue key of the Cancel button. */
  cancelLabel?: string;
  /** Another button in Cancel's place (e.g. Logout). */
  secondaryAction?: ReactNode;
  /** The whole button row, for a dialog whose buttons are not Cancel and a submit. */
  actions?: ReactNode;
  maxWidth?: 'xs' | 'sm' | 'md';
  /** Space between the fields (theme spacing). */
  spacing?: number;
  children: ReactNode;
}

/**
 * A modal form: the title, the fields, then Cancel and the submit button (seed section 2's modals). Field messages
 * show once a field is touched or after a submit; the submit button spins while the form is sent. The first field
 * has the focus when the dialog opens, so a keyboard user starts typing rather than tabbing into the dialog first.
 * The form mounts with each opening, so it starts from `record` / `defaultValues` every time.
 */
export const FormDialog = ({
  open,
  onClose,
  title,
  submitLabel,
  submitColor,
  cancelLabel = 'app.list.cancel',
  secondaryAction,
  actions,
  maxWidth = 'sm',
  spacing = 0.5,
  record,
  defaultValues,
  onSubmit,
  validate,
  children,
}: FormDialogProps) => {
  const translate = useTranslate();
  const titleId = useId();
  // Called once the fields are in the page and before MUI's focus trap would focus the dialog itself, which it
  // does only when the focus is not inside already.
  const focusFirstField = useCallback((content: HTMLElement | null) => {
    if (content) firstField(content)?.focus();
  }, []);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      disableEscapeKeyDown={!onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={maxWidth}
    >
      {open && (
        <Form
          record={record}
          defaultValues={defaultValues}
          onSubmit={onSubmit}
          validate={validate}
          mode="onTouched"
          noValidate
        >
          <DialogTitle id={titleId}>{translate(title)}</DialogTitle>
          <DialogContent ref={focusFirstField}>
            <Stack spacing={spacing} sx={{ pt: 1 }}>
              {children}
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            {actions ?? (
              <>
                {secondaryAction ?? (onClose && <Button onClick={onClose}>{translate(cancelLabel)}</Button>)}
                <SubmitButton label={submitLabel} color={submitColor} />
              </>
            )}
          </DialogActions>
        </Form>
      )}
    </Dialog>
  );
};
