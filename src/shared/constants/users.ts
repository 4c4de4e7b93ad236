// The users constants both sides use, without zod so the sign-in page can import them (schemas re-export them).
import { UserType } from '../enums';
import { MSG } from '../messages';

export const USER_MSG = {
  invalidType: 'Invalid user type',
  typeChange: 'User type cannot be changed',
  invalidAadhar: 'Invalid Aadhar number',
  invalidPan: MSG.invalidValue,
  invalidUserId: 'Invalid user id',
  invalidDistrict: 'Invalid district id',
  invalidTehsil: 'Invalid tehsil id',
  masterDistributorMissing: 'Selected master distributor does not exist',
  distributorMissing: 'Selected distributor does not exist',
  distributorOutsideMaster: 'Selected distributor does not belong to the selected master distributor',
  retailerMissing: 'Selected retailer does not exist',
  mobileTaken: 'This mobile number is already registered',
  userNameTaken: 'This user name is already taken',
  // User names and mobile numbers are one namespace: sign-in takes either (issue 41).
  userNameIsMobile: "This user name is another user's mobile number",
  mobileIsUserName: "This mobile number is another user's user name",
  userNotFound: 'User not found',
  statusChanged: 'User Status Changed Successfully',
  invalidStatus: 'Status must be ACTIVE or INACTIVE',
} as const;

/** Success toasts by user type (seed section 8; 'Empolyee' sic). */
export const USER_SAVED_MSG: Record<number, { created: string; updated: string }> = {
  [UserType.MASTER_DISTRIBUTOR]: {
    created: 'MasterDistributor Created Successfully!',
    updated: 'MasterDistributor Updated Successfully!',
  },
  [UserType.DISTRIBUTOR]: {
    created: 'Distributor Created Successfully!',
    updated: 'Distributor Updated Successfully!',
  },
  [UserType.RETAILER]: {
    created: 'Retailer Created Successfully!',
    updated: 'Retailer Updated Successfully!',
  },
  [UserType.CUSTOMER]: {
    created: 'Customer Created Successfully!',
    updated: 'Customer Updated Successfully!',
  },
  [UserType.EMPLOYEE]: {
    created: 'Empolyee Created Successfully!',
    updated: 'Empolyee Updated Successfully!',
  },
  [UserType.ADMIN]: {
    created: 'Admin Created Successfully!',
    updated: 'Admin Updated Successfully!',
  },
};
