import DoneAllIcon from '@mui/icons-material/DoneAll';
import PaymentsIcon from '@mui/icons-material/Payments';
import TuneIcon from '@mui/icons-material/Tune';
import { Button, DialogContentText, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { type ComponentType, type ReactElement, type ReactNode, useContext, useState } from 'react';
import {
  Confirm,
  ListContext,
  RadioButtonGroupInput,
  TextInput,
  useCanAccess,
  useDataProvider,
  useGetOne,
  useListContext,
  useNotify,
  useRefresh,
  useTranslate,
  type ValidateForm,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { TIER_TYPES } from '../../../shared/enums';
import { titleCase } from '../../../shared/format';
import { adjustSchema } from '../../../shared/schemas/approvals';
import { payoutSchema, SALES_MSG } from '../../../shared/schemas/sales';
import { FormDialog } from '../../forms/FormDialog';
import { RupeesInput } from '../../forms/inputs';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { useFormat } from '../../i18n/format';
import { sharedKey } from '../../i18n/sharedMessages';
import type { AppDataProvider } from '../../providers/dataProvider';
import { usePendingNotice } from '../approvals/SoleAdmin';
import { UserLookup, UserTypeInput, userResourceOf } from './UserLookups';

/** The user record behind a chosen type and id (already cached by the lookup that chose it). */
const useChosenUser = (userType: unknown, userId: unknown) => {
  const resource = userResourceOf(userType);
  const enabled = !!resource && typeof userId === 'string' && userId !== '';
  const { data } = useGetOne(resource ?? 'customers', { id: String(userId ?? '') }, { enabled });
  return enabled ? data : undefined;
};

/**
 * Settle (ADMIN): moves clearing balances to available, for the user the list is filtered by, or for everyone
 * when no user is chosen. Asks first, then toasts this call's answer (the server's message, 'N commissions
 * settled', or its refusal) and refreshes.
 */
export const SettleButton = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { filterValues } = useListContext();
  const userId =
    typeof filterValues.userId === 'string' && filterValues.userId ? filterValues.userId : undefined;
  const user = useChosenUser(filterValues.userType, userId);
  const [open, setOpen] = useState(false);
  const settle = useMutation({ mutationFn: (id?: string) => dataProvider.settleWallets(id) });

  const confirm = () =>
    settle.mutate(userId, {
      onSuccess: ({ result, message }) => {
        // A call that ended the session answers nothing (react-admin has logged out and said so).
        if (!result && !message) return;
        notify(message ?? SALES_MSG.settled(result?.settled ?? 0), { type: 'success' });
        refresh();
        setOpen(false);
      },
      // The dialog stays open to retry or cancel.
      onError: (error) => notify(error.message, { type: 'error' }),
    });

  return (
    <>
      <Button size="small" startIcon={<DoneAllIcon />} onClick={() => setOpen(true)}>
        {translate('app.transactions.settle')}
      </Button>
      <Confirm
        isOpen={open}
        loading={settle.isPending}
        title="app.transactions.settleTitle"
        content={
          userId
            ? translate('app.transactions.settleOne', { name: titleCase(user?.name) || userId })
            : translate('app.transactions.settleAll')
        }
        confirm="app.transactions.settle"
        cancel="app.list.cancel"
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
};

type Values = Record<string, unknown>;

const blank = (value: unknown) => value === undefined || value === null || String(value).trim() === '';

/** The server's rules of a money command (its schema), plus the user type the user lookup needs. */
const withUserType =
  (rules: ValidateForm): ValidateForm =>
  (values) => ({
    ...(blank(values.userType) ? { userType: sharedKey('msg', 'required') } : {}),
    ...(rules(values) as Record<string, unknown>),
  });

/** The server's payout rules (payoutSchema). */
export const validatePayout = withUserType(
  schemaValidator(payoutSchema, {
    toInput: (values) => ({
      userId: blank(values.userId) ? undefined : values.userId,
      amount: blank(values.amount) ? undefined : String(values.amount).trim(),
      reference: values.reference ?? undefined,
    }),
  }),
);

/** Under the user: the balance a payout may take (the server refuses more). */
const AvailableBalance = () => {
  const translate = useTranslate();
  const format = useFormat();
  const [userType, userId] = useWatch({ name: ['userType', 'userId'] });
  const user = useChosenUser(userType, userId);
  if (!user) return null;
  return (
    <Typography variant="body2" color="text.secondary">
      {translate('app.transactions.available', { amount: format.rupees(user.balance) })}
    </Typography>
  );
};

export interface MoneyDialogProps {
  open: boolean;
  onClose: () => void;
  /** The user to start on (the list's filter). */
  defaultValues?: Values;
}

/**
 * A money command on a tier user's wallet (a payout, an adjustment): its text, the user (type, lookup, available
 * balance), then `children`'s fields. `send` makes the call for the chosen user; `say` toasts its answer and tells whether there was one
 * (a call that ended the session answers nothing: react-admin has logged out and said so). Each call toasts its own
 * answer: a refusal (409: not enough balance) now, in red, not the previous call's, and the dialog stays open.
 */
const MoneyDialog = <A,>({
  open,
  onClose,
  defaultValues,
  title,
  submitLabel,
  text,
  validate,
  send,
  say,
  children,
}: MoneyDialogProps & {
  /** Catalogue keys of the title, the submit button and the text under the title. */
  title: string;
  submitLabel: string;
  text: string;
  validate: ValidateForm;
  send: (userId: string, values: Values) => Promise<A>;
  say: (answer: A) => boolean;
  children: ReactNode;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const command = useMutation({ mutationFn: (values: Values) => send(String(values.userId), values) });
  const submit = async (values: Values) => {
    try {
      await command.mutateAsync(values, {
        onSuccess: (answer) => {
          if (!say(answer)) return;
          refresh();
          onClose();
        },
        onError: (error) => notify(error.message, { type: 'error' }),
      });
    } catch {
      // Toasted by onError; the dialog stays open.
    }
  };
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={title}
      submitLabel={submitLabel}
      validate={validate}
      defaultValues={defaultValues}
      onSubmit={submit}
    >
      <DialogContentText sx={{ mb: 1 }}>{translate(text)}</DialogContentText>
      <UserTypeInput tiersOnly validate={requiredMark} />
      <UserLookup validate={requiredMark} />
      <AvailableBalance />
      {children}
    </FormDialog>
  );
};

/** Record Payout (ADMIN): money paid to a user's bank, debited from its available balance. */
export const PayoutDialog = (props: MoneyDialogProps) => {
  const notify = useNotify();
  const notifyPending = usePendingNotice();
  const dataProvider = useDataProvider<AppDataProvider>();
  return (
    <MoneyDialog
      {...props}
      title="app.transactions.payoutTitle"
      submitLabel="app.transactions.recordPayout"
      text="app.transactions.payoutText"
      validate={validatePayout}
      send={(userId, values) =>
        dataProvider.recordPayout({
          userId,
          amount: String(values.amount).trim(),
          reference: String(values.reference).trim(),
        })
      }
      say={({ data, pending, message }) => {
        // Above a line (or made by an employee): a pending command, nothing moved yet (202).
        if (pending) {
          notifyPending(message ?? sharedKey('sales', 'payoutPending'));
          return true;
        }
        if (!data?.id) return false;
        // A repeated reference answers the first payout: say so rather than claim a second one.
        notify(message ?? sharedKey('sales', 'payoutRecorded'), {
          type: message === SALES_MSG.payoutReplayed ? 'info' : 'success',
        });
        return true;
      }}
    >
      <RupeesInput label="app.transactions.amountRupees" />
      <TextInput
        source="reference"
        label="app.transactions.reference"
        autoComplete="off"
        validate={requiredMark}
      />
    </MoneyDialog>
  );
};

/** The user a list is filtered to (type and id), so Record Payout starts on that user; none on another screen. */
const useFilteredUser = (): Values | undefined => {
  const list = useContext(ListContext);
  const { userType, userId } = (list?.filterValues ?? {}) as Values;
  if (typeof userId !== 'string' || userId === '' || userType === undefined || userType === null)
    return undefined;
  // Payouts and adjustments are for tier users only.
  if (!(TIER_TYPES as readonly number[]).includes(Number(userType))) return undefined;
  return { userType, userId };
};

/** A list's button that opens a money dialog on the user the list is filtered to. */
const MoneyButton = ({
  label,
  icon,
  Dialog,
}: {
  label: string;
  icon: ReactElement;
  Dialog: ComponentType<MoneyDialogProps>;
}) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const filteredUser = useFilteredUser();
  return (
    <>
      <Button size="small" startIcon={icon} onClick={() => setOpen(true)}>
        {translate(label)}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} defaultValues={filteredUser} />
    </>
  );
};

export const PayoutButton = () => (
  <MoneyButton label="app.transactions.recordPayout" icon={<PaymentsIcon />} Dialog={PayoutDialog} />
);

/** Credit adds to the available balance, debit takes from it: the sign of the amount sent. */
const DIRECTIONS = [
  { id: 'CREDIT', name: 'app.transactions.adjustCredit' },
  { id: 'DEBIT', name: 'app.transactions.adjustDebit' },
];

/** The signed amount `wallet/adjust` takes: the typed rupees, negative for a debit. */
const signedAmount = (values: Values) => {
  if (blank(values.amount)) return undefined;
  const amount = String(values.amount).trim();
  return values.direction === 'DEBIT' ? `-${amount}` : amount;
};

/** The server's adjustment rules (adjustSchema). */
export const validateAdjustment = withUserType(
  schemaValidator(adjustSchema, {
    toInput: (values) => ({
      userId: blank(values.userId) ? undefined : values.userId,
      amount: signedAmount(values),
      note: values.note ?? undefined,
      reason: values.reason ?? undefined,
    }),
  }),
);

/**
 * Adjust Wallet (ADMIN, EMPLOYEE: the role table's `adjustments`): a signed correction of a tier user's available
 * balance, for what the ledger cannot express otherwise, with a note the user's statement shows and an internal
 * reason only staff see. It always waits for a second admin (202), so the toast says no money has moved yet.
 */
export const AdjustDialog = ({ defaultValues, ...props }: MoneyDialogProps) => {
  const notifyPending = usePendingNotice();
  const dataProvider = useDataProvider<AppDataProvider>();
  return (
    <MoneyDialog
      {...props}
      defaultValues={{ direction: 'CREDIT', ...defaultValues }}
      title="app.transactions.adjustTitle"
      submitLabel="app.transactions.adjustSubmit"
      text="app.transactions.adjustText"
      validate={validateAdjustment}
      send={(userId, values) =>
        dataProvider.adjustWallet({
          userId,
          amount: signedAmount(values) ?? '',
          note: String(values.note).trim(),
          reason: String(values.reason).trim(),
        })
      }
      say={({ pending, message }) => {
        if (!pending) return false;
        notifyPending(message ?? sharedKey('sales', 'adjustmentPending'));
        return true;
      }}
    >
      <RadioButtonGroupInput
        source="direction"
        label="app.transactions.adjustDirection"
        choices={DIRECTIONS}
        row
      />
      <RupeesInput label="app.transactions.amountRupees" />
      <TextInput
        source="note"
        label="app.transactions.adjustNote"
        helperText="app.transactions.adjustNoteHelp"
        autoComplete="off"
        validate={requiredMark}
      />
      <TextInput
        source="reason"
        label="app.transactions.adjustReason"
        helperText="app.transactions.adjustReasonHelp"
        multiline
        minRows={2}
        validate={requiredMark}
      />
    </MoneyDialog>
  );
};

/** Adjust Wallet beside Record Payout, for whoever the role table lets make adjustments. */
export const AdjustButton = () => {
  const { canAccess } = useCanAccess({ resource: 'adjustments', action: 'create' });
  if (!canAccess) return null;
  return <MoneyButton label="app.transactions.adjust" icon={<TuneIcon />} Dialog={AdjustDialog} />;
};
