import { lazy, Suspense } from 'react';
import { Admin, CanAccess, CustomRoutes, Loading, Resource, ResourceContextProvider } from 'react-admin';
import { BrowserRouter, Navigate, Route } from 'react-router-dom';
import type { LeadType } from '../shared/schemas/leads';
import { i18nProvider } from './i18n/i18n';
import { AccessDenied } from './layout/AccessDenied';
import { AppNotification } from './layout/AppNotification';
import { Layout } from './layout/Layout';
import { lazyPage } from './layout/lazyPage';
import { darkTheme, lightTheme } from './layout/theme';
import { Login, LoginRedirect } from './pages/Login';
import { ONBOARDING_PATHS } from './pages/onboarding/paths';
import { Welcome } from './pages/Welcome';
import { authProvider, HOME_PATH, LOGIN_PATH } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { SECURITY_PATH } from './providers/paths';
import { usePanelQueryClient } from './providers/queryClient';
import { createStore } from './providers/store';
import { RESOURCES, type ResourceScreen } from './resources';

const store = createStore();

// The dashboard (with the change-password dialog) loads with the screens chunk, after sign-in.
const Dashboard = lazyPage(
  () => import('./pages/Dashboard'),
  (module) => module.Dashboard,
);

// The person's own Security page (the second step, the sessions), from the user menu.
const SecurityPage = lazyPage(
  () => import('./pages/security/SecurityPage'),
  (module) => module.SecurityPage,
);

// The public onboarding form (with react-dropzone and its file handling) loads only when its route opens.
const OnboardingPage = lazy(() =>
  import('./pages/onboarding/Onboarding').then((module) => ({ default: module.Onboarding })),
);
const LazyOnboarding = ({ leadType }: { leadType: LeadType }) => (
  <Suspense fallback={<Loading />}>
    <OnboardingPage leadType={leadType} />
  </Suspense>
);

/**
 * A resource screen at the seed's own path (react-admin's would be /<resource>). A custom route gets no access
 * check of its own, and react-admin's list only redirects after its first request: CanAccess asks the role table
 * first, so a refused screen sends nothing.
 */
const seedRoute = (resource: string, { path, page: Page, action }: ResourceScreen) => (
  <Route
    key={path}
    path={path}
    element={
      <ResourceContextProvider value={resource}>
        <CanAccess resource={resource} action={action} accessDenied={<AccessDenied />}>
          <Suspense fallback={<Loading />}>
            <Page />
          </Suspense>
        </CanAccess>
      </ResourceContextProvider>
    }
  />
);

/**
 * The panel's table of contents (seed section 2 routes).
 * - '' redirects to /auth; /auth is the login page; react-admin's /login forwards there.
 * - /welcome (and later /onboarding/*) are public pages without the sidebar.
 * - /home is the dashboard, inside the layout; routes with the layout require a session (the layout's gate).
 * - /security is the person's own Security page (the user menu's link), for every signed-in person.
 * The dashboard is a custom route rather than `dashboard=` because '/' belongs to the redirect.
 * Resources are registered (names = ROLE_TABLE keys, for canAccess, references and labels) and their lists are
 * mounted at the seed's paths (/location/state/list, /provider/list...), which the menu links to.
 * BrowserRouter (not react-admin's default hash router) gives real paths, so the server must
 * answer unknown non-API paths with index.html. Light and dark themes with react-admin's toggle; the language and
 * the theme are remembered in the store (and survive a sign-out, see store.ts). react-query's client is the
 * panel's own (providers/queryClient.ts: what happens offline and when the connection is back).
 */
export const App = () => (
  <BrowserRouter>
    <Admin
      title="Tierdesk"
      queryClient={usePanelQueryClient()}
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      layout={Layout}
      loginPage={LoginRedirect}
      notification={AppNotification}
      theme={lightTheme}
      darkTheme={darkTheme}
      store={store}
      disableTelemetry
    >
      <CustomRoutes noLayout>
        <Route path="/" element={<Navigate to={LOGIN_PATH} replace />} />
        <Route path={LOGIN_PATH} element={<Login />} />
        <Route path="/welcome" element={<Welcome />} />
        <Route path={ONBOARDING_PATHS.RETAILER} element={<LazyOnboarding leadType="RETAILER" />} />
        <Route path={ONBOARDING_PATHS.DISTRIBUTOR} element={<LazyOnboarding leadType="DISTRIBUTOR" />} />
      </CustomRoutes>
      <CustomRoutes>
        <Route
          path={HOME_PATH}
          element={
            <Suspense fallback={<Loading />}>
              <Dashboard />
            </Suspense>
          }
        />
        <Route
          path={SECURITY_PATH}
          element={
            <Suspense fallback={<Loading />}>
              <SecurityPage />
            </Suspense>
          }
        />
        {RESOURCES.flatMap(({ name, screens }) => screens.map((screen) => seedRoute(name, screen)))}
      </CustomRoutes>
      {RESOURCES.map(({ name, icon, recordRepresentation }) => (
        <Resource key={name} name={name} icon={icon} recordRepresentation={recordRepresentation} />
      ))}
    </Admin>
  </BrowserRouter>
);
