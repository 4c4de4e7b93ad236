import { z } from 'zod';
import { MSG } from '../messages';

export const nameField = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { error: requiredMessage })
    .max(100, { error: 'Name must be at most 100 characters' });

export const idField = (requiredMessage: string, invalidMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { error: requiredMessage })
    .pipe(z.uuid({ error: invalidMessage }));

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

export const stateSchema = z.object({ name: nameField(LOCATION_MSG.stateNameRequired) });
export const districtSchema = z.object({
  name: nameField(LOCATION_MSG.districtNameRequired),
  stateId: idField(LOCATION_MSG.stateRequired, LOCATION_MSG.invalidState),
});
export const tehsilSchema = z.object({
  name: nameField(LOCATION_MSG.tehsilNameRequired),
  districtId: idField(LOCATION_MSG.districtRequired, LOCATION_MSG.invalidDistrict),
  stateId: idField(LOCATION_MSG.stateRequired, LOCATION_MSG.invalidState),
});
export type StateInput = z.infer<typeof stateSchema>;
export type DistrictInput = z.infer<typeof districtSchema>;
export type TehsilInput = z.infer<typeof tehsilSchema>;
