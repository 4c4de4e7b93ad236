import { z } from 'zod';
import { LOCATION_MSG } from '../constants/locations';

// Zod-free (the sign-in page imports them without zod); re-exported so the server's imports stay.
export { LOCATION_MSG } from '../constants/locations';

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
