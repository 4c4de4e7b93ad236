import englishMessages from 'ra-language-english';
import { MSG } from '../../shared/messages';

/** Labels shared by the commission columns, inputs and CSV headers. */
const commissionFields = {
  adminCommission: 'Admin Commission',
  masterDistributorCommission: 'Master Distributor Commission',
  distributorCommission: 'Distributor Commission',
  retailerCommission: 'Retailer Commission',
  customerCommission: 'Customer Commission',
};

/** The one catalogue of visible texts: react-admin's English plus the panel's own `app` namespace. */
export const en = {
  ...englishMessages,
  ra: {
    ...englishMessages.ra,
    message: {
      ...englishMessages.ra.message,
      // Seed section 8: every invalid form submit toasts 'Invalid data!'.
      invalid_form: MSG.validationFailed,
    },
  },
  resources: {
    states: {
      name: 'State |||| States',
      fields: { name: 'Name', createdAt: 'Created At' },
    },
    districts: {
      name: 'District |||| Districts',
      fields: { 'state.name': 'State Name', stateId: 'State', name: 'Name', createdAt: 'Created At' },
    },
    tehsils: {
      name: 'Tehsil |||| Tehsils',
      fields: {
        'state.name': 'State Name',
        'district.name': 'District Name',
        stateId: 'State',
        districtId: 'District',
        name: 'Tehsil Name',
        createdAt: 'Created At',
      },
    },
    providers: {
      name: 'Provider |||| Providers',
      fields: { name: 'Name', createdAt: 'Created At' },
    },
    products: {
      name: 'Product |||| Products',
      fields: {
        name: 'Name',
        'provider.name': 'Provider',
        providerId: 'Provider',
        amount: 'Amount',
        ...commissionFields,
        url: 'URL',
        'urlParams.reqType': 'URL Request Method',
        'urlParams.data': 'URL Request Data Identifier',
        createdAt: 'Created At',
      },
    },
  },
  app: {
    title: 'Tierdesk',
    login: {
      heading: 'Welcome back!',
      subtext: 'Enter your details to continue',
      mobile: 'Mobile',
      password: 'Password',
      submit: 'Login',
      createAccount: 'Create Account',
      showPassword: 'Show password',
      hidePassword: 'Hide password',
      logoHome: 'Tierdesk home',
      sessionEnded: MSG.sessionEndedNotice,
    },
    welcome: {
      heading: 'Welcome to Tierdesk',
      subtext: 'Join our agent network or log in to your account',
      retailerTitle: 'Join as Retailer',
      retailerText: 'Open an outlet and serve customers in your area.',
      distributorTitle: 'Join as Distributor',
      distributorText: 'Grow a network of retailers in your district.',
      login: 'Login',
    },
    menu: {
      home: 'Home',
      providers: 'Providers',
      products: 'Products',
      tehsils: 'Tehsil',
      districts: 'District',
      states: 'State',
      logout: 'Logout',
    },
    list: {
      search: 'Search',
      edit: 'Edit',
      editRow: 'Edit %{name}',
      create: 'Create',
      update: 'Update',
      cancel: 'Cancel',
      pagination: 'Pagination',
    },
    lookup: {
      searching: 'searching...',
      failed: 'Sorry, suggestions could not be loaded.',
      none: 'No results available',
      count: '%{smart_count} result(s) available',
    },
    states: {
      title: 'States',
      subtitle: 'The states of the location hierarchy',
      add: 'Add State',
      createTitle: 'Create New State',
      updateTitle: 'Update State',
    },
    districts: {
      title: 'Districts',
      subtitle: 'Districts and the state each belongs to',
      add: 'Add District',
      createTitle: 'Create New District',
      updateTitle: 'Update District',
    },
    tehsils: {
      title: 'Tehsils',
      subtitle: 'Tehsils with their district and state',
      add: 'Add Tehsil',
      createTitle: 'Create New Tehsil',
      updateTitle: 'Update Tehsil',
    },
    providers: {
      title: 'Providers',
      subtitle: 'Partners whose products retailers sell',
      add: 'Add Provider',
      createTitle: 'Create New Provider',
      updateTitle: 'Update Provider',
    },
    products: {
      title: 'Products',
      subtitle: 'Provider products and how their amount is shared',
      add: 'Add Product',
      createTitle: 'Create New Product',
      updateTitle: 'Update Product',
      commissions: 'Commissions (%)',
      commissionTotal: 'Total commission: %{total}',
    },
    logout: {
      title: MSG.logoutTitle,
      text: MSG.logoutText,
      yes: MSG.logoutYes,
      no: MSG.logoutNo,
    },
    dashboard: {
      title: 'Dashboard',
      loadError: 'Could not load the user counts.',
      retry: 'Retry',
      waitingForPassword: 'Update your password to see the dashboard.',
    },
    password: {
      title: 'Update Password',
      oldPassword: 'Old Password',
      newPassword: 'New Password',
      confirmPassword: 'Confirm New Password',
      submit: 'Update',
    },
  },
};
