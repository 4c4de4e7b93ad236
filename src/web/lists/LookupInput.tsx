import { Box } from '@mui/material';
import { useState } from 'react';
import {
  AutocompleteInput,
  type AutocompleteInputProps,
  ChoicesContextProvider,
  type ChoicesContextValue,
  type RaRecord,
  ReferenceInput,
  useChoicesContext,
  useTranslate,
} from 'react-admin';
import { titleCase } from '../../shared/format';
import { PUBLIC_LOOKUP_LIMIT, TYPEAHEAD_DEBOUNCE_MS } from '../../shared/rules';

/**
 * Read by screen readers, not shown. Sizes in px: a bare `1` in MUI's sx is 100%, which with `nowrap` once made
 * the onboarding page 2057 px wide.
 */
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

export interface LookupInputProps
  extends Pick<AutocompleteInputProps, 'validate' | 'disabled' | 'onChange' | 'helperText'> {
  source: string;
  reference: string;
  /** i18n key or text */
  label: string;
  /** Server filters, e.g. `{ stateId }` for the districts of a state. */
  filter?: Record<string, unknown>;
  /** A suggestion's text (default: the title-cased name). */
  optionText?: (record: RaRecord) => string;
  /**
   * Why the lookup cannot search yet (seed section 5: 'No provider selected', 'Please Select User Type First!'), a
   * catalogue key: the input stays usable, fetches nothing, and opening or typing in it shows this text.
   */
  blocked?: string;
}

const nameText = (record: RaRecord) => titleCase(record?.name);

type AutocompleteProps = Omit<LookupInputProps, 'source' | 'reference' | 'filter' | 'blocked'>;

/**
 * The AutocompleteInput inside ReferenceInput. A lookup that cannot load reads 'Sorry, suggestions could not be
 * loaded.' (seed section 2) under the input and in the list, whatever the cause: an HTTP error (instead of its
 * text), or no connection at all, where react-query pauses the query rather than failing it and react-admin would
 * put its own 'No connectivity. Could not fetch data.' in place of the input. While the input has focus a polite
 * live region announces 'searching...', 'No results available' or 'N result(s) available'.
 */
const LookupAutocomplete = ({ label, optionText = nameText, ...rest }: AutocompleteProps) => {
  const choices = useChoicesContext();
  const translate = useTranslate();
  const [focused, setFocused] = useState(false);
  const failed = translate('app.lookup.failed');
  const offline = !!choices.isPaused && (choices.isPending || !!choices.isPlaceholderData);
  const broken = !!choices.error || offline;
  const value = (
    broken
      ? { ...choices, error: new Error(failed), isPaused: false, isPending: false, isPlaceholderData: false }
      : choices
  ) as ChoicesContextValue;
  const count = choices.availableChoices?.length ?? 0;
  const announcement = !focused
    ? ''
    : broken
      ? failed
      : choices.isPending || choices.isFetching
        ? translate('app.lookup.searching')
        : count === 0
          ? translate('app.lookup.none')
          : translate('app.lookup.count', { smart_count: count });
  return (
    <ChoicesContextProvider value={value}>
      <Box onFocus={() => setFocused(true)} onBlur={() => setFocused(false)}>
        <AutocompleteInput
          label={label}
          optionText={optionText}
          debounce={TYPEAHEAD_DEBOUNCE_MS}
          loadingText="app.lookup.searching"
          noOptionsText={broken ? failed : 'app.lookup.none'}
          offline={false}
          fullWidth
          // A dialog puts the focus in its first field: a list that opened by itself would cover the fields below
          // and take the first Escape. Typing, a click or Alt+Down opens it (the combobox pattern).
          openOnFocus={false}
          {...rest}
        />
        <Box component="span" role="status" aria-live="polite" sx={visuallyHidden}>
          {announcement}
        </Box>
      </Box>
    </ChoicesContextProvider>
  );
};

/**
 * The lookup while it cannot search: no ReferenceInput (a disabled query would read as 'searching...'), no
 * choices, and the reason as the list's text and in the live region.
 */
const BlockedLookup = ({
  source,
  label,
  message,
  optionText: _optionText,
  ...rest
}: AutocompleteProps & { source: string; message: string }) => {
  const translate = useTranslate();
  const [focused, setFocused] = useState(false);
  return (
    <Box onFocus={() => setFocused(true)} onBlur={() => setFocused(false)}>
      <AutocompleteInput
        source={source}
        label={label}
        choices={[]}
        noOptionsText={message}
        fullWidth
        {...rest}
      />
      <Box component="span" role="status" aria-live="polite" sx={visuallyHidden}>
        {focused ? translate(message) : ''}
      </Box>
    </Box>
  );
};

/**
 * A typeahead over another resource (seed sections 2, 5, 9): ReferenceInput + AutocompleteInput, searching
 * by name (`q` -> searchText) once typing pauses (TYPEAHEAD_DEBOUNCE_MS), page 1 of 10 suggestions sorted by name.
 */
export const LookupInput = ({ source, reference, filter, blocked, ...rest }: LookupInputProps) =>
  blocked ? (
    <BlockedLookup source={source} message={blocked} {...rest} />
  ) : (
    <ReferenceInput
      source={source}
      reference={reference}
      filter={filter}
      // A disabled lookup (the district before a state is chosen) fetches nothing.
      enableGetChoices={() => !rest.disabled}
      perPage={PUBLIC_LOOKUP_LIMIT}
      sort={{ field: 'name', order: 'ASC' }}
      // One retry, not react-query's three with back-off: the failure text shows within a second or two.
      queryOptions={{ retry: 1 }}
      // Offline is a failure like any other (LookupAutocomplete): the input stays, with the seed's text.
      offline={false}
    >
      <LookupAutocomplete {...rest} />
    </ReferenceInput>
  );
