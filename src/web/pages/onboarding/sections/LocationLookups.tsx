import { ChainedLookups } from '../../../forms/ChainedLookups';
import { requiredMark } from '../../../forms/schemaValidator';

export interface LocationLookupsProps {
  /** Form paths of the three ids, e.g. 'businessInfo.stateId'. */
  state: string;
  district: string;
  tehsil: string;
}

const label = (source: string) => `resources.leads.fields.${source}`;

/**
 * State, district and tehsil typeaheads over the public lookups (seed section 7: page 1, limit 10, searchText,
 * stateId / districtId), chained: each waits for the one above and lists only its children.
 */
export const LocationLookups = ({ state, district, tehsil }: LocationLookupsProps) => (
  <ChainedLookups
    levels={[
      { source: state, reference: 'states', label: label(state), validate: requiredMark },
      {
        source: district,
        reference: 'districts',
        label: label(district),
        parentFilter: 'stateId',
        validate: requiredMark,
      },
      {
        source: tehsil,
        reference: 'tehsils',
        label: label(tehsil),
        parentFilter: 'districtId',
        validate: requiredMark,
      },
    ]}
  />
);
