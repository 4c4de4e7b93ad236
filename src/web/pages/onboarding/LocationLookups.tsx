import { useFormContext, useWatch } from 'react-hook-form';
import { LookupInput } from '../../lists/LookupInput';

export interface LocationLookupsProps {
  /** Form paths of the three ids, e.g. 'businessInfo.stateId'. */
  state: string;
  district: string;
  tehsil: string;
}

const label = (source: string) => `resources.leads.fields.${source}`;

/**
 * State, district and tehsil typeaheads over the public lookups (seed section 7: page 1, limit 10, searchText,
 * stateId / districtId). They chain: the district waits for a state and lists only its districts, the tehsil
 * waits for a district; choosing a parent clears the children chosen for another one.
 */
export const LocationLookups = ({ state, district, tehsil }: LocationLookupsProps) => {
  const { setValue } = useFormContext();
  const stateId = useWatch({ name: state }) as string | null;
  const districtId = useWatch({ name: district }) as string | null;
  const clear = (...sources: string[]) => {
    for (const source of sources) setValue(source, null, { shouldDirty: true });
  };
  return (
    <>
      <LookupInput
        source={state}
        reference="states"
        label={label(state)}
        onChange={() => clear(district, tehsil)}
      />
      <LookupInput
        key={`district-${stateId ?? 'none'}`}
        source={district}
        reference="districts"
        label={label(district)}
        filter={stateId ? { stateId } : {}}
        disabled={!stateId}
        onChange={() => clear(tehsil)}
      />
      <LookupInput
        key={`tehsil-${districtId ?? 'none'}`}
        source={tehsil}
        reference="tehsils"
        label={label(tehsil)}
        filter={districtId ? { districtId } : {}}
        disabled={!districtId}
      />
    </>
  );
};
