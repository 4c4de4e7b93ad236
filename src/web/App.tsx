import { Admin, CustomRoutes } from 'react-admin';
import { BrowserRouter, Navigate, Route } from 'react-router-dom';
import { AppNotification } from './layout/AppNotification';
import { Layout } from './layout/Layout';
import { theme } from './layout/theme';
import { Dashboard } from './pages/Dashboard';
import { Login, LoginRedirect } from './pages/Login';
import { Welcome } from './pages/Welcome';
import { authProvider, HOME_PATH, LOGIN_PATH } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { i18nProvider } from './providers/i18n';

/**
 * The panel's table of contents (seed section 2 routes).
 * - '' redirects to /auth; /auth is the login page; react-admin's /login forwards there.
 * - /welcome (and later /onboarding/*) are public pages without the sidebar.
 * - /home is the dashboard, inside the layout; routes with the layout require a session.
 * The dashboard is a custom route rather than `dashboard=` because '/' belongs to the redirect.
 * BrowserRouter (not react-admin's default hash router) gives real paths, so the server must
 * answer unknown non-API paths with index.html.
 */
export const App = () => (
  <BrowserRouter>
    <Admin
      title="Tierdesk"
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      layout={Layout}
      loginPage={LoginRedirect}
      notification={AppNotification}
      theme={theme}
      requireAuth
      disableTelemetry
    >
      <CustomRoutes noLayout>
        <Route path="/" element={<Navigate to={LOGIN_PATH} replace />} />
        <Route path={LOGIN_PATH} element={<Login />} />
        <Route path="/welcome" element={<Welcome />} />
      </CustomRoutes>
      <CustomRoutes>
        <Route path={HOME_PATH} element={<Dashboard />} />
      </CustomRoutes>
    </Admin>
  </BrowserRouter>
);
