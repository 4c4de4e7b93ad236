import englishMessages from 'ra-language-english';
import { MSG } from '../../shared/messages';

/** The one catalogue of visible texts: react-admin's English plus the panel's own `app` namespace. */
export const en = {
  ...englishMessages,
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
      logout: 'Logout',
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
