// One onboarding application as the public form sends it (leads/create), for the tests and benches that apply.
import { verhoeffDigit } from '../../src/shared/identity';

// Real file bytes: a 1x1 PNG and a small PDF.
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

export interface Place {
  stateId: string;
  districtId: string;
  tehsilId: string;
}

/** A valid Aadhar number per seed (Verhoeff check digit). */
export function applicantAadhar(seed: number) {
  const base = `5${String(seed).padStart(10, '0')}`;
  return `${base}${verhoeffDigit(base)}`;
}

export type SectionOverrides = Partial<Record<string, Record<string, unknown>>>;

/** The application's JSON sections in `place`, each field overridable. */
export function applicationSections(place: Place, over: SectionOverrides = {}) {
  const sections: Record<string, Record<string, unknown>> = {
    applicantInfo: { name: 'Kiran Patil', education: 'B.Com', gender: 'Female' },
    businessInfo: {
      establishmentName: 'Kiran Mobile Point',
      outletAddress: 'Shop 4, Market Road',
      businessLandmark: 'Near bus stand',
      pincode: '411001',
      ...place,
      mobile: '9876543210',
      telephone: '020-2345678',
      email: 'kiran@example.in',
      ownershipType: 'Rented',
      yearsInLocation: '5',
    },
    permanentAddress: {
      residentialAddress: '12 Lane 3',
      landmark: 'Temple',
      permanentAddressPincode: '411002',
      permanentStateId: place.stateId,
      permanentDistrictId: place.districtId,
      permanentTehsilId: place.tehsilId,
      permanentMobile: '9876543211',
      permanentTelephone: '020-2345679',
      permanentEmail: 'kiran.home@example.in',
    },
    otherBusinessInfo: {
      outletDescription: 'Mobile recharge and bill payments',
      similarServiceDetails: 'None',
      panNumber: 'abcde1234f',
      aadharNumber: applicantAadhar(1),
    },
    bankInfo: { bankName: 'State Bank', accountNumber: '123456789012', ifscCode: 'sbin0001234' },
    identityProof: { type: 'PAN', documentNumber: 'ABCDE1234F' },
  };
  for (const [part, fields] of Object.entries(over)) sections[part] = { ...sections[part], ...fields };
  return sections;
}

/** The whole multipart body of a retailer's application with a picture and a PAN document. */
export function applicationForm(place: Place, over: SectionOverrides = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(applicationSections(place, over)))
    form.append(name, JSON.stringify(value));
  form.append('leadType', 'RETAILER');
  form.append('picture', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'me.png');
  form.append('document', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), 'pan.pdf');
  return form;
}
