import { MSG } from '../../../shared/messages';
import {
  LEAD_FILES,
  LEAD_JSON_PARTS,
  LEAD_MSG,
  type LeadFileField,
  type LeadJsonPart,
  type LeadType,
  leadPartSchemas,
} from '../../../shared/schemas/leads';

/**
 * The onboarding form's model: the six sections as react-hook-form values, validated by the shared zod
 * schemas (src/shared/schemas/leads.ts) so the panel shows the server's own field messages.
 */
export type LeadSectionValues = Record<string, string | null>;
export type LeadFormValues = Record<LeadJsonPart, LeadSectionValues>;
export type LeadFormErrors = Partial<Record<LeadJsonPart, Record<string, string>>>;
export type LeadFiles = Record<LeadFileField, File | null>;

/** Blank form: every field empty, gender Male (seed section 2), lookups unset. */
export const emptyLeadForm = (): LeadFormValues => ({
  applicantInfo: { name: '', education: '', gender: 'Male' },
  businessInfo: {
    establishmentName: '',
    outletAddress: '',
    businessLandmark: '',
    pincode: '',
    stateId: null,
    districtId: null,
    tehsilId: null,
    mobile: '',
    telephone: '',
    email: '',
    ownershipType: null,
    yearsInLocation: '',
  },
  permanentAddress: {
    residentialAddress: '',
    landmark: '',
    permanentAddressPincode: '',
    permanentStateId: null,
    permanentDistrictId: null,
    permanentTehsilId: null,
    permanentMobile: '',
    permanentTelephone: '',
    permanentEmail: '',
  },
  otherBusinessInfo: { outletDescription: '', similarServiceDetails: '', panNumber: '', aadharNumber: '' },
  bankInfo: { bankName: '', accountNumber: '', ifscCode: '' },
  identityProof: { type: null, documentNumber: '' },
});

const isBlank = (value: unknown) => value === undefined || value === null || String(value).trim() === '';

/** First message per field of one section, from its shared schema. */
export function sectionErrors(part: LeadJsonPart, value: unknown): Record<string, string> {
  const parsed = leadPartSchemas[part].safeParse(value ?? {});
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  const values = (value ?? {}) as Record<string, unknown>;
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? '');
    // An unanswered choice (ownership, document type) reads as required, not 'Must be one of ...'.
    if (key) errors[key] ??= isBlank(values[key]) ? MSG.required : issue.message;
  }
  return errors;
}

/** react-admin's form-level `validate`: `{ businessInfo: { pincode: 'Pincode must be 6 digits' } }`. */
export function validateLeadForm(values: Partial<LeadFormValues>): LeadFormErrors {
  const errors: LeadFormErrors = {};
  for (const part of LEAD_JSON_PARTS) {
    const found = sectionErrors(part, values[part]);
    if (Object.keys(found).length) errors[part] = found;
  }
  return errors;
}

/**
 * 'Same as above' (seed sections 2 and 4): each business field and the permanent-address field it fills.
 * Address, landmark, pincode, state, district, tehsil, mobile, telephone and email.
 */
export const SAME_AS_ABOVE: readonly (readonly [business: string, permanent: string])[] = [
  ['outletAddress', 'residentialAddress'],
  ['businessLandmark', 'landmark'],
  ['pincode', 'permanentAddressPincode'],
  ['stateId', 'permanentStateId'],
  ['districtId', 'permanentDistrictId'],
  ['tehsilId', 'permanentTehsilId'],
  ['mobile', 'permanentMobile'],
  ['telephone', 'permanentTelephone'],
  ['email', 'permanentEmail'],
];

/** The six JSON parts as sent: each section as the shared schema reads it (trimmed, PAN and IFSC upper case). */
export function toLeadParts(values: LeadFormValues): Record<LeadJsonPart, unknown> {
  return Object.fromEntries(
    LEAD_JSON_PARTS.map((part) => {
      const parsed = leadPartSchemas[part].safeParse(values[part]);
      return [part, parsed.success ? parsed.data : values[part]];
    }),
  ) as Record<LeadJsonPart, unknown>;
}

/** The multipart body of `leads/create` (seed section 3, Lead). */
export function toLeadFormData(values: LeadFormValues, leadType: LeadType, files: LeadFiles): FormData {
  const form = new FormData();
  const parts = toLeadParts(values);
  for (const part of LEAD_JSON_PARTS) form.append(part, JSON.stringify(parts[part]));
  form.append('leadType', leadType);
  if (files.picture) form.append('picture', files.picture, files.picture.name);
  if (files.document) form.append('document', files.document, files.document.name);
  return form;
}

/** Extensions offered by the file dialog, per accepted type (react-dropzone's `accept`). */
const EXTENSIONS: Record<string, string[]> = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'image/webp': ['.webp'],
  'application/pdf': ['.pdf'],
};

export const dropzoneAccept = (field: LeadFileField): Record<string, string[]> =>
  Object.fromEntries(LEAD_FILES[field].mimes.map((mime) => [mime, EXTENSIONS[mime] ?? []]));

/** The client-side file check mirroring the server's (LEAD_FILES): type, then size. Null when fine. */
export function fileProblem(field: LeadFileField, file: { type: string; size: number }): string | null {
  const rule = LEAD_FILES[field];
  if (!(rule.mimes as readonly string[]).includes(file.type)) return LEAD_MSG.fileType(field);
  if (file.size > rule.maxBytes) return LEAD_MSG.fileTooLarge(field);
  if (file.size === 0) return field === 'picture' ? LEAD_MSG.photoRequired : LEAD_MSG.documentRequired;
  return null;
}

/** '512 B', '1.5 KB', '2.0 MB' */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const isPart = (value: string): value is LeadJsonPart =>
  (LEAD_JSON_PARTS as readonly string[]).includes(value);
const isFile = (value: string): value is LeadFileField => value in LEAD_FILES;

/**
 * The server's refusal `errors: [{ msg, param: 'businessInfo.pincode' }]` split into field errors for the form
 * (react-admin sets them on the matching inputs) and file errors for the two dropzones.
 */
export function serverErrors(errors: unknown): {
  fields: LeadFormErrors;
  files: Partial<Record<LeadFileField, string>>;
} {
  const fields: LeadFormErrors = {};
  const files: Partial<Record<LeadFileField, string>> = {};
  if (!Array.isArray(errors)) return { fields, files };
  for (const error of errors as { msg?: unknown; param?: unknown }[]) {
    const msg = typeof error?.msg === 'string' ? error.msg : '';
    const [part, field] = String(error?.param ?? '').split('.');
    if (!msg || !part) continue;
    if (isFile(part)) files[part] ??= msg;
    else if (isPart(part) && field) {
      const section = fields[part] ?? {};
      section[field] ??= msg;
      fields[part] = section;
    }
  }
  return { fields, files };
}
