import { useState } from 'react';

/**
 * Minimal form state for the panel's hand-made forms: values, touched flags and a validator.
 * Seed section 5: a field's message shows only once it is touched; an invalid submit touches all.
 */
export function useFormState<K extends string>(
  initial: Record<K, string>,
  validate: (values: Record<K, string>) => Partial<Record<K, string>>,
) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});
  const errors = validate(values);
  const isValid = Object.values(errors).every((message) => !message);

  const field = (name: K) => {
    const message = touched[name] ? errors[name] : undefined;
    return {
      id: name,
      name,
      value: values[name],
      onChange: (event: { target: { value: string } }) =>
        setValues((prev) => ({ ...prev, [name]: event.target.value })),
      onBlur: () => setTouched((prev) => ({ ...prev, [name]: true })),
      error: !!message,
      helperText: message || undefined,
    };
  };

  const touchAll = () =>
    setTouched(Object.fromEntries(Object.keys(initial).map((key) => [key, true])) as Record<K, boolean>);

  return { values, errors, isValid, field, touchAll };
}
