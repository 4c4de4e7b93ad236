import { Box } from '@mui/material';
import { SelectInput, type Validator } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { TIER_TYPES, UserType } from '../../../shared/enums';
import { USER_TYPE_RESOURCE } from '../../../shared/roles';
import { sharedKey } from '../../i18n/sharedMessages';
import { FittedSelectInput } from '../../lists/FittedSelectInput';
import { LookupInput } from '../../lists/LookupInput';

/** Seed section 3: the selectable user types (customer and the three tiers); the ledger adds the admin's wallet. */
const SELECTABLE = [
  UserType.CUSTOMER,
  UserType.MASTER_DISTRIBUTOR,
  UserType.DISTRIBUTOR,
  UserType.RETAILER,
] as const;

/** Ids are strings: '0' (admin) must survive the filter form, which drops empty values. */
const typeChoices = (types: readonly UserType[]) =>
  types.map((type) => ({ id: String(type), name: `app.userTypes.${type}` }));

export interface UserTypeInputProps {
  source?: string;
  /** The user lookup this type narrows; cleared when the type changes. */
  userSource?: string;
  /** Offer the admin's own wallet (Transactions filter), not only the selectable types. */
  withAdmin?: boolean;
  /** The tier users only (payouts and adjustments, which the server takes for them alone). */
  tiersOnly?: boolean;
  alwaysOn?: boolean;
  validate?: Validator;
  /** In a filter bar: as wide as its label (in a dialog the field is as wide as the form anyway). */
  fitLabel?: boolean;
}

export const UserTypeInput = ({
  source = 'userType',
  userSource = 'userId',
  withAdmin = false,
  tiersOnly = false,
  validate,
  fitLabel = false,
}: UserTypeInputProps) => {
  const { setValue } = useFormContext();
  const Select = fitLabel ? FittedSelectInput : SelectInput;
  return (
    <Select
      source={source}
      label="resources.transactions.fields.userType"
      choices={typeChoices(tiersOnly ? TIER_TYPES : withAdmin ? [...SELECTABLE, UserType.ADMIN] : SELECTABLE)}
      emptyText="app.transactions.allUserTypes"
      validate={validate}
      onChange={() => setValue(userSource, null, { shouldDirty: true })}
    />
  );
};

export interface UserLookupProps {
  source?: string;
  typeSource?: string;
  alwaysOn?: boolean;
  validate?: Validator;
}

/**
 * A user of the chosen type (`account/fetch?type=`, 10 suggestions). Seed section 5: without a user type it searches
 * nothing and says 'Please Select User Type First!'. The admin type has no lookup: `userType=0` is its one wallet.
 */
export const UserLookup = ({ source = 'userId', typeSource = 'userType', validate }: UserLookupProps) => {
  const userType = useWatch({ name: typeSource }) as string | null | undefined;
  const chosen = userType !== undefined && userType !== null && userType !== '';
  if (chosen && Number(userType) === UserType.ADMIN) return null;
  const reference = chosen ? USER_TYPE_RESOURCE[Number(userType)] : undefined;
  return (
    <Box sx={{ minWidth: 240 }}>
      <LookupInput
        key={reference ?? 'none'}
        source={source}
        reference={reference ?? 'customers'}
        label="resources.transactions.fields.userId"
        blocked={reference ? undefined : sharedKey('sales', 'selectUserTypeFirst')}
        validate={validate}
      />
    </Box>
  );
};

/** The record behind a chosen user id, for names and balances (the lookup has usually cached it). */
export const userResourceOf = (userType: unknown) =>
  userType === undefined || userType === null || userType === ''
    ? undefined
    : USER_TYPE_RESOURCE[Number(userType)];
