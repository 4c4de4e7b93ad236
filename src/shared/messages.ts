/**
 * Every text the seed fixes verbatim (sections 2, 5, 8), spelling included (sic where marked).
 * Panel and server import these so the wording lives in one place.
 */
export const MSG = {
  // Login and session
  customerLoginRefused: 'Customer login not allowed on panel. Please download app!',
  invalidLoginForm: 'Username Or Password Invalid',
  invalidCredentials: 'Invalid username or password',
  inactiveUser: 'Your account is inactive. Please contact your administrator.',
  tooManyAttempts: (minutes: number) =>
    `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  tooManyAddressAttempts: (minutes: number) =>
    `Too many sign-in attempts from this network. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  tooManyPasswordAttempts: (minutes: number) =>
    `Too many wrong passwords. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  loginSuccess: 'Logged in successfully',
  authRequired: 'Authentication required',
  invalidSession: 'Invalid session token',
  sessionExpired: 'Your session has expired. Please log in again.',
  xsrfRefused: 'Invalid or missing XSRF token',
  passwordChangeRequired: 'Password change required',
  forbidden: 'You do not have permission to do this',
  notFound: 'Not found',
  routeNotFound: (method: string, url: string) => `Route ${method} ${url} not found`,
  internalError: 'Something went wrong on our side. Please try again.',
  /** 503, with Retry-After: no primary database answered (a failover under way, http/errors.ts). */
  databaseSwitching: 'The database is switching over; try again in a moment',
  validationFailed: 'Invalid data!',
  invalidText: 'Text must not contain NUL bytes, control characters or invalid Unicode',
  tooDeep: 'Data is nested too deeply',
  malformedUpload: 'The upload is not valid multipart/form-data',
  uploadCutOff: 'The upload ended before it was complete. Please send it again.',
  uploadStalled: 'The upload stopped arriving. Please send it again.',
  // Requests refused before any route (http/router-errors.ts)
  badUrl: 'This address is not valid: it holds a percent-encoded character that cannot be read',
  pathPartTooLong: 'A part of this address is too long',
  requestTooLarge: 'The address or the headers of this request are too large',
  requestUnreadable: 'This request could not be read',
  requestTimeout: 'The request did not arrive in time. Please send it again.',

  // Password change
  passwordUpdated: 'Password Updated Successfully!',
  loginWithNewPassword: 'Please login with new password now',
  wrongOldPassword: 'Old password is incorrect',
  passwordMismatch: 'Password and confirm password should be same!',
  passwordSameAsOld: 'New password must be different from the old password',
  loggedOut: 'Logged out successfully',

  // Field messages (seed section 5)
  required: 'This field is required',
  invalidMobile: 'Invalid mobile number',
  invalidEmail: 'Invalid email',
  invalidEmailId: 'Invalid email id',
  passwordPattern:
    'Password must contain at least eight characters, at least one number and both lower and uppercase letters and special characters',
  invalidValue: 'Invalid value',
  passwordLength: 'Password length should be 8 digits',
  aadharLength: 'Aadhar length should be 12 digits',
  minLength: 'Minimum length not fulfilled',
  atMost: (max: number) => `At most ${max} characters`,
  mustMatch: 'Entered password and confirm password is different',
  unhandled: (code: string) => `Unhandled error for - ${code}`,

  // Panel chrome
  errorTitle: 'Error!!!',
  internetError: 'Internet connection error',
  logoutTitle: 'Confirm Logout',
  logoutText: 'Are you sure you want to exit from this application?',
  logoutYes: 'Yes, logout',
  logoutNo: 'No',
  noData: 'No Data Found',
  sessionEndedNotice: 'Your session has ended. Please log in again.',
} as const;
