import type { LeadType } from '../../../shared/schemas/leads';

/**
 * The seed's routes of the two onboarding forms (section 2). Apart from Onboarding.tsx so the router can name them
 * without loading the form (and react-dropzone) into the sign-in bundle.
 */
export const ONBOARDING_PATHS: Record<LeadType, string> = {
  RETAILER: '/onboarding/retailer',
  DISTRIBUTOR: '/onboarding/distributor',
};
