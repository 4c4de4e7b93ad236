// The leads constants both sides use, without zod so the sign-in page can import them (schemas re-export them).
export const LEAD_TYPES = ['RETAILER', 'DISTRIBUTOR'] as const;
export type LeadType = (typeof LEAD_TYPES)[number];
export const LEAD_STATUSES = ['NEW', 'APPROVED', 'REJECTED'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const GENDERS = ['Male', 'Female'] as const;
export const OWNERSHIP_TYPES = ['Rented', 'Owned'] as const;
export const IDENTITY_DOCUMENTS = ['AADHAR', 'PAN', 'VOTERID', 'DL', 'OTHER'] as const;

/** Picture and document limits; types are judged from the bytes, not the name. */
export const LEAD_FILES = {
  picture: {
    maxBytes: 2 * 1024 * 1024,
    mimes: ['image/jpeg', 'image/png', 'image/webp'],
    label: 'Picture',
    kinds: 'a JPEG, PNG or WebP image',
  },
  document: {
    maxBytes: 5 * 1024 * 1024,
    mimes: ['application/pdf', 'image/jpeg', 'image/png'],
    label: 'Document',
    kinds: 'a PDF, JPEG or PNG file',
  },
} as const;

export type LeadFileField = keyof typeof LEAD_FILES;

/** Whole-request cap, checked before parsing: both files at their limits plus the JSON parts. */
export const LEAD_MAX_REQUEST_BYTES = 8 * 1024 * 1024;

export const LEAD_MSG = {
  allRequired: 'All fields are required to proceed for verification',
  documentRequired: 'At least one document is required',
  photoRequired: 'Photo is required to proceed for verification',
  sameAsAboveRefused: 'First fill all the required fields of business information section!',
  thankYou:
    'Thank you for submiting your details. We have received your application, we will review and get back to you soon!',
  missingPart: (part: string) => `${part} is required`,
  badJson: (part: string) => `${part} must be valid JSON`,
  fileType: (file: LeadFileField) => `${LEAD_FILES[file].label} must be ${LEAD_FILES[file].kinds}`,
  fileTooLarge: (file: LeadFileField) =>
    `${LEAD_FILES[file].label} must be at most ${LEAD_FILES[file].maxBytes / 1024 / 1024} MB`,
  requestTooLarge: `The application is too large: at most ${LEAD_MAX_REQUEST_BYTES / 1024 / 1024} MB in all`,
  notMultipart: 'The application must be sent as multipart/form-data',
  unexpectedPart: (part: string) => `Unexpected part: ${part}`,
  rateLimited: 'Too many applications from this network. Please try again in an hour.',
  invalidLeadType: 'Lead type must be RETAILER or DISTRIBUTOR',
  invalidPincode: 'Pincode must be 6 digits',
  invalidTelephone: 'Invalid telephone number',
  invalidIfsc: 'Invalid IFSC code',
  invalidAccount: 'Account number must be 9 to 18 digits',
  invalidYears: 'Years in location must be a whole number from 0 to 100',
  invalidAadhar: 'Invalid Aadhar number',
  leadNotFound: 'Application not found',
  alreadyDecided: 'This application has already been decided',
  reasonRequired: 'A reason is required to reject an application',
  approved: 'Application approved',
  rejected: 'Application rejected',
} as const;
