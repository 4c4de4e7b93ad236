import type { ComponentType } from 'react';
import { Admin, CustomRoutes, Resource, ResourceContextProvider } from 'react-admin';
import { BrowserRouter, Navigate, Route } from 'react-router-dom';
import { AppNotification } from './layout/AppNotification';
import { Layout } from './layout/Layout';
import { theme } from './layout/theme';
import { Dashboard } from './pages/Dashboard';
import { Login, LoginRedirect } from './pages/Login';
import { ONBOARDING_PATHS, Onboarding } from './pages/onboarding/Onboarding';
import { Welcome } from './pages/Welcome';
import { authProvider, HOME_PATH, LOGIN_PATH } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { i18nProvider } from './providers/i18n';
import customers from './resources/customers';
import distributors from './resources/distributors';
import districts from './resources/districts';
import employees from './resources/employees';
import leads from './resources/leads';
import masterDistributors from './resources/masterDistributors';
import products from './resources/products';
import providers from './resources/providers';
import retailers from './resources/retailers';
import states from './resources/states';
import tehsils from './resources/tehsils';

/** A resource screen at the seed's own path (react-admin's would be /<resource>). */
const seedRoute = (resource: string, path: string, Page: ComponentType) => (
  <Route
    key={path}
    path={path}
    element={
      <ResourceContextProvider value={resource}>
        <Page />
      </ResourceContextProvider>
    }
  />
);

/**
 * The panel's table of contents (seed section 2 routes).
 * - '' redirects to /auth; /auth is the login page; react-admin's /login forwards there.
 * - /welcome (and later /onboarding/*) are public pages without the sidebar.
 * - /home is the dashboard, inside the layout; routes with the layout require a session.
 * The dashboard is a custom route rather than `dashboard=` because '/' belongs to the redirect.
 * Resources are registered (names = ROLE_TABLE keys, for canAccess, references and labels) and their lists are
 * mounted at the seed's paths (/location/state/list, /provider/list...), which the menu links to.
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
        <Route path={ONBOARDING_PATHS.RETAILER} element={<Onboarding leadType="RETAILER" />} />
        <Route path={ONBOARDING_PATHS.DISTRIBUTOR} element={<Onboarding leadType="DISTRIBUTOR" />} />
      </CustomRoutes>
      <CustomRoutes>
        <Route path={HOME_PATH} element={<Dashboard />} />
        {seedRoute('masterDistributors', masterDistributors.path, masterDistributors.list)}
        {seedRoute('distributors', distributors.path, distributors.list)}
        {seedRoute('employees', employees.path, employees.list)}
        {seedRoute('retailers', retailers.path, retailers.list)}
        {seedRoute('customers', customers.path, customers.list)}
        {seedRoute('providers', providers.path, providers.list)}
        {seedRoute('products', products.path, products.list)}
        {seedRoute('tehsils', tehsils.path, tehsils.list)}
        {seedRoute('tehsils', tehsils.createPath, tehsils.createPage)}
        {seedRoute('districts', districts.path, districts.list)}
        {seedRoute('states', states.path, states.list)}
        {seedRoute('leads', leads.path, leads.list)}
      </CustomRoutes>
      <Resource
        name="masterDistributors"
        icon={masterDistributors.icon}
        recordRepresentation={masterDistributors.recordRepresentation}
      />
      <Resource
        name="distributors"
        icon={distributors.icon}
        recordRepresentation={distributors.recordRepresentation}
      />
      <Resource
        name="employees"
        icon={employees.icon}
        recordRepresentation={employees.recordRepresentation}
      />
      <Resource
        name="retailers"
        icon={retailers.icon}
        recordRepresentation={retailers.recordRepresentation}
      />
      <Resource
        name="customers"
        icon={customers.icon}
        recordRepresentation={customers.recordRepresentation}
      />
      <Resource
        name="providers"
        icon={providers.icon}
        recordRepresentation={providers.recordRepresentation}
      />
      <Resource name="products" icon={products.icon} recordRepresentation={products.recordRepresentation} />
      <Resource name="tehsils" icon={tehsils.icon} recordRepresentation={tehsils.recordRepresentation} />
      <Resource
        name="districts"
        icon={districts.icon}
        recordRepresentation={districts.recordRepresentation}
      />
      <Resource name="states" icon={states.icon} recordRepresentation={states.recordRepresentation} />
      <Resource name="leads" icon={leads.icon} recordRepresentation={leads.recordRepresentation} />
    </Admin>
  </BrowserRouter>
);
