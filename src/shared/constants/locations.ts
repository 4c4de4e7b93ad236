// The locations constants both sides use, without zod so the sign-in page can import them (schemas re-export them).
import { MSG } from '../messages';

export const LOCATION_MSG = {
  stateNameRequired: 'State name is required!',
  districtNameRequired: 'District name is required!',
  tehsilNameRequired: 'Tehsil name is required!',
  stateRequired: MSG.required,
  districtRequired: MSG.required,
  invalidState: 'Invalid state id',
  invalidDistrict: 'Invalid district id',
  stateMissing: 'Selected state does not exist',
  districtMissing: 'Selected district does not exist',
  districtOutsideState: 'Selected district does not belong to the selected state',
  tehsilMissing: 'Selected tehsil does not exist',
  tehsilOutsideDistrict: 'Selected tehsil does not belong to the selected district',
  stateNotFound: 'State not found',
  districtNotFound: 'District not found',
  tehsilNotFound: 'Tehsil not found',
  duplicateState: (name: string) => `A state named "${name}" already exists`,
  duplicateDistrict: (name: string) => `A district named "${name}" already exists in this state`,
  duplicateTehsil: (name: string) => `A tehsil named "${name}" already exists in this district`,
  stateCreated: 'State Created Successfully!',
  stateUpdated: 'State Updated Successfully!',
  districtCreated: 'District Created Successfully!',
  districtUpdated: 'District Updated Successfully!',
  tehsilCreated: 'Tehsil Created Successfully!',
  tehsilUpdated: 'Tehsil Updated Successfully!',
} as const;
