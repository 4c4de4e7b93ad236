import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useNotify, useRefresh, type ValidateForm } from 'react-admin';
import { FormDialog } from './FormDialog';

export type DecisionValues = Record<string, unknown>;

export interface DecisionDialogProps {
  open: boolean;
  onClose: () => void;
  /** Catalogue keys of the title, the submit button and Cancel. */
  title: string;
  submitLabel: string;
  cancelLabel: string;
  color: 'primary' | 'error';
  validate?: ValidateForm;
  /** Sends the decision; resolves the server's message. */
  decide: (values: DecisionValues) => Promise<{ message?: string }>;
  /** Catalogue key toasted when the server sends no message. */
  fallbackMessage: string;
  children: ReactNode;
}

/**
 * One decision (approve or reject an application, a pending command) as a small modal form: a react-query mutation
 * over the dataProvider, so the loading bar knows about it. It toasts the server's message, refreshes the views and
 * closes; a refusal toasts in red and keeps the dialog open.
 */
export const DecisionDialog = ({
  open,
  onClose,
  title,
  submitLabel,
  cancelLabel,
  color,
  validate,
  decide,
  fallbackMessage,
  children,
}: DecisionDialogProps) => {
  const notify = useNotify();
  const refresh = useRefresh();
  const { mutateAsync } = useMutation({
    mutationFn: decide,
    onSuccess: ({ message }) => {
      notify(message || fallbackMessage, { type: 'success' });
      refresh();
      onClose();
    },
    onError: (error) => notify(error.message, { type: 'error' }),
  });
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={title}
      submitLabel={submitLabel}
      submitColor={color}
      cancelLabel={cancelLabel}
      spacing={1}
      onSubmit={(values: DecisionValues) => mutateAsync(values).catch(() => undefined)}
      validate={validate}
    >
      {children}
    </FormDialog>
  );
};
