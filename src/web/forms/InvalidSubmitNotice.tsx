import { useEffect, useRef } from 'react';
import { useNotify, type ValidateForm } from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';

/**
 * The toast of an invalid submit when the seed gives the form its own text ('Username Or Password Invalid', 'All
 * fields are required to proceed for verification') instead of 'Invalid data!'. Judged from the values, not from
 * the form's errors, which also hold the server's refusals of the last submit. Use with the Form's
 * `disableInvalidFormNotification`.
 */
export const InvalidSubmitNotice = ({ message, validate }: { message: string; validate: ValidateForm }) => {
  const { submitCount } = useFormState();
  const { getValues } = useFormContext();
  const notify = useNotify();
  const seen = useRef(submitCount);
  useEffect(() => {
    if (submitCount <= seen.current) return;
    seen.current = submitCount;
    // A form's validate may be async (the login form loads its schema on the first submit).
    void Promise.resolve(validate(getValues())).then((errors) => {
      if (errors && Object.keys(errors).length) notify(message, { type: 'error' });
    });
  }, [submitCount, getValues, notify, message, validate]);
  return null;
};
