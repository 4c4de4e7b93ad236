import { useMutation } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { serverFieldErrors } from './serverErrors';

type Values = Record<string, unknown>;

/**
 * A form's submit that sends one call (a react-query mutation, so the loading bar knows about it): its answer's
 * message, or `fallback` (a catalogue key), toasts in green and `then` runs with the answer and that message; a
 * refusal toasts in red and its field errors go back to the form, which stays open.
 */
export const useSendForm = <A extends { message?: string }>(
  send: (values: Values) => Promise<A>,
  fallback: string,
  then: (answer: A, message: string) => unknown,
) => {
  const notify = useNotify();
  const { mutateAsync } = useMutation({ mutationFn: send });
  return async (values: Values) => {
    try {
      const answer = await mutateAsync(values);
      const message = answer.message || fallback;
      notify(message, { type: 'success' });
      await then(answer, message);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      return serverFieldErrors(error);
    }
  };
};
