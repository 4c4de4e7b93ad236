import { Button, type ButtonProps, CircularProgress } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useFormState } from 'react-hook-form';

/** A form's submit button: disabled with a spinner while the form is being sent. `label` is a catalogue key. */
export const SubmitButton = ({ label, ...props }: { label: string } & Omit<ButtonProps, 'type'>) => {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button
      type="submit"
      variant="contained"
      disabled={isSubmitting}
      startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
      {...props}
    >
      {translate(label)}
    </Button>
  );
};
