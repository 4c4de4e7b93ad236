import { LEAD_MSG } from '../../src/shared/schemas/leads';
import {
  emptyLeadForm,
  fileProblem,
  formatBytes,
  invalidSubmitMessage,
  toLeadFormData,
  validateLeadForm,
} from '../../src/web/forms/leadForm';
import { sharedKey } from '../../src/web/i18n/sharedMessages';

const required = sharedKey('msg', 'required');
const png = (size = 10) => new File([new Uint8Array(size)], 'me.png', { type: 'image/png' });
const pdf = () => new File([new Uint8Array(10)], 'pan.pdf', { type: 'application/pdf' });

describe('onboarding form model', () => {
  it('a blank form needs every field and both files; unanswered choices read as required, gender defaults to Male', () => {
    const errors = validateLeadForm(emptyLeadForm()) as Record<string, Record<string, unknown>>;
    expect(errors.applicantInfo).toEqual({ name: required, education: required });
    expect(errors.businessInfo?.ownershipType).toBe(required);
    expect(errors.businessInfo?.stateId).toBe(required);
    expect(errors.identityProof).toEqual({ type: required, documentNumber: required });
    expect(Object.keys(errors.permanentAddress ?? {})).toHaveLength(9);
    expect(errors.picture).toBe(sharedKey('lead', 'photoRequired'));
    expect(errors.document).toBe(sharedKey('lead', 'documentRequired'));
  });

  it('checks files as the server does: type first, then size', () => {
    expect(fileProblem('picture', { type: 'application/pdf', size: 10 })).toBe(LEAD_MSG.fileType('picture'));
    expect(fileProblem('picture', { type: 'image/webp', size: 2 * 1024 * 1024 + 1 })).toBe(
      LEAD_MSG.fileTooLarge('picture'),
    );
    expect(fileProblem('document', { type: 'application/pdf', size: 5 * 1024 * 1024 })).toBeNull();
    expect(fileProblem('document', { type: 'image/webp', size: 10 })).toBe(LEAD_MSG.fileType('document'));
    const errors = validateLeadForm({ ...emptyLeadForm(), picture: pdf() as never }) as Record<
      string,
      unknown
    >;
    expect(errors.picture).toBe(sharedKey('lead', 'pictureType'));
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(2 * 1024 * 1024)).toBe('2.0 MB');
  });

  it("names the seed's toast of an invalid submit: fields first, then the document, then the photo", () => {
    expect(invalidSubmitMessage(emptyLeadForm())).toBe(LEAD_MSG.allRequired);
  });

  it('sends the picture and the document as the multipart parts of the same names', () => {
    const form = toLeadFormData({ ...emptyLeadForm(), picture: png(), document: pdf() }, 'RETAILER');
    expect((form.get('picture') as File).name).toBe('me.png');
    expect((form.get('document') as File).name).toBe('pan.pdf');
    expect(form.get('leadType')).toBe('RETAILER');
    expect(JSON.parse(String(form.get('applicantInfo')))).toMatchObject({ gender: 'Male' });
  });
});
