import { MSG } from '../../src/shared/messages';
import { LEAD_MSG } from '../../src/shared/schemas/leads';
import {
  emptyLeadForm,
  fileProblem,
  formatBytes,
  serverErrors,
  validateLeadForm,
} from '../../src/web/pages/onboarding/leadForm';

describe('onboarding form model', () => {
  it('a blank form needs every field; unanswered choices read as required, gender defaults to Male', () => {
    const errors = validateLeadForm(emptyLeadForm());
    expect(errors.applicantInfo).toEqual({ name: MSG.required, education: MSG.required });
    expect(errors.businessInfo?.ownershipType).toBe(MSG.required);
    expect(errors.businessInfo?.stateId).toBe(MSG.required);
    expect(errors.identityProof).toEqual({ type: MSG.required, documentNumber: MSG.required });
    expect(Object.keys(errors.permanentAddress ?? {})).toHaveLength(9);
  });

  it('checks files as the server does: type first, then size', () => {
    expect(fileProblem('picture', { type: 'application/pdf', size: 10 })).toBe(LEAD_MSG.fileType('picture'));
    expect(fileProblem('picture', { type: 'image/webp', size: 2 * 1024 * 1024 + 1 })).toBe(
      LEAD_MSG.fileTooLarge('picture'),
    );
    expect(fileProblem('document', { type: 'application/pdf', size: 5 * 1024 * 1024 })).toBeNull();
    expect(fileProblem('document', { type: 'image/webp', size: 10 })).toBe(LEAD_MSG.fileType('document'));
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(2 * 1024 * 1024)).toBe('2.0 MB');
  });

  it("splits the server's errors into field errors and file errors", () => {
    expect(
      serverErrors([
        { msg: LEAD_MSG.invalidPincode, param: 'businessInfo.pincode' },
        { msg: 'second', param: 'businessInfo.pincode' },
        { msg: LEAD_MSG.fileType('picture'), param: 'picture' },
        { msg: 'ignored', param: 'leadType' },
      ]),
    ).toEqual({
      fields: { businessInfo: { pincode: LEAD_MSG.invalidPincode } },
      files: { picture: LEAD_MSG.fileType('picture') },
    });
    expect(serverErrors(undefined)).toEqual({ fields: {}, files: {} });
  });
});
