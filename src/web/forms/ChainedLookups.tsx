import { Fragment } from 'react';
import type { RaRecord } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { LookupInput, type LookupInputProps } from '../lists/LookupInput';

export interface LookupLevel extends Pick<LookupInputProps, 'validate' | 'optionText'> {
  /** The form field holding the chosen id. */
  source: string;
  reference: string;
  /** i18n key of the label. */
  label: string;
  /** The server filter that narrows this level to the level above's choice, e.g. 'stateId' for districts. */
  parentFilter?: string;
  /**
   * Without a choice above, the lookup is disabled; with `waitText` it stays usable and says this instead
   * (seed section 5: 'No provider selected').
   */
  waitText?: string;
  onChange?: (record: RaRecord | undefined) => void;
}

/**
 * Parent-then-child typeaheads (seed section 4): state -> district -> tehsil, district -> tehsil, master distributor
 * -> distributor, provider -> product. Each level searches only inside the choice above it and waits for it;
 * choosing a parent clears every choice below, which belonged to another parent.
 */
export const ChainedLookups = ({ levels }: { levels: LookupLevel[] }) => {
  const { setValue } = useFormContext();
  const values = useWatch({ name: levels.map((level) => level.source) }) as (string | null | undefined)[];
  return (
    <>
      {levels.map((level, index) => {
        const parent = index > 0 ? values[index - 1] : undefined;
        const waiting = index > 0 && !parent;
        return (
          <Fragment key={level.source}>
            <LookupInput
              // A new parent is a new search: the input starts again with that parent's suggestions.
              key={`${level.source}-${parent ?? 'none'}`}
              source={level.source}
              reference={level.reference}
              label={level.label}
              validate={level.validate}
              optionText={level.optionText}
              filter={!waiting && level.parentFilter ? { [level.parentFilter]: parent } : {}}
              disabled={waiting && !level.waitText}
              blocked={waiting ? level.waitText : undefined}
              onChange={(_value, record) => {
                for (const below of levels.slice(index + 1))
                  setValue(below.source, null, { shouldDirty: true });
                level.onChange?.(Array.isArray(record) ? record[0] : (record as RaRecord | undefined));
              }}
            />
          </Fragment>
        );
      })}
    </>
  );
};
