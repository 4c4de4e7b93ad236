import { TextInput } from 'react-admin';
import { requiredMark } from './schemaValidator';

/** A required field of digits (a BSR code, a challan's serial), typed on a phone's number pad. */
export const DigitsInput = ({
  source,
  label,
  autoComplete = 'off',
}: {
  source: string;
  /** Catalogue key of the label. */
  label: string;
  autoComplete?: string;
}) => (
  <TextInput
    source={source}
    label={label}
    autoComplete={autoComplete}
    slotProps={{ htmlInput: { inputMode: 'numeric' } }}
    validate={requiredMark}
  />
);

/** The code of one's second step of signing in: a one-time code the phone may fill in. */
export const CodeInput = ({ label }: { label: string }) => (
  <DigitsInput source="otp" label={label} autoComplete="one-time-code" />
);

/** A required amount in rupees (`amount`), typed on a phone's number pad with its decimal point. */
export const RupeesInput = ({ label }: { label: string }) => (
  <TextInput
    source="amount"
    label={label}
    slotProps={{ htmlInput: { inputMode: 'decimal' } }}
    validate={requiredMark}
  />
);
