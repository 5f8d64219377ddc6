import { createBrowserRouter, type LoaderFunctionArgs, Navigate, type RouteObject, redirect } from 'react-router';
import { getToken } from '../api/storage';
import { RouteError } from '../components/RouteError';
import { afterLoginPath, guardLoader } from '../services/guard';
import { leafRoutes, REDIRECT_NAME, type RouteHandle, STAGING_PATH } from '../services/routes';
import { isLeaving } from '../services/session';
import { safeComponent } from './lazy';
import { pages } from './pages';

const comingSoon = () => import('../components/ComingSoon').then((m) => m.ComingSoon);

// every page of the catalogue, inside the layout; pages not built yet show "coming soon"
const pageRoutes: RouteObject[] = leafRoutes.map((route) => ({
  path: route.path,
  handle: { name: route.name, meta: route.meta, parent: route.parent } satisfies RouteHandle,
  lazy: () => safeComponent(pages[route.name] ?? comingSoon),
}));

// a parent path (`/dashboard`) opens its first child
const parentRedirects: RouteObject[] = [...new Set(leafRoutes.map((r) => r.parent).filter((p) => p !== undefined))]
  .filter((parent) => parent.path !== STAGING_PATH)
  .flatMap((parent) => {
    const first = parent.children?.find((child) => !child.meta.hideInMenu);
    return first ? [{ path: parent.path, element: <Navigate to={first.path} replace /> }] : [];
  });

// shown while a lazy route loads on a cold start (react-router warns without one)
const boot = <div className="app-boot" />;

// signed in already: the sign-in page goes on to the app
const signedInRedirect = ({ request }: LoaderFunctionArgs) =>
  getToken() && !isLeaving() ? redirect(afterLoginPath(new URL(request.url).search)) : null;

export const router = createBrowserRouter([
  { path: '/', element: <Navigate to="/login" replace /> },
  {
    path: '/login',
    loader: signedInRedirect,
    hydrateFallbackElement: boot,
    lazy: () => safeComponent(() => import('../modules/auth/login/LoginPage').then((m) => m.LoginPage)),
  },
  {
    path: '/register',
    hydrateFallbackElement: boot,
    lazy: () => safeComponent(() => import('../modules/auth/register/RegisterPage').then((m) => m.RegisterPage)),
  },
  {
    path: '/findPassword',
    hydrateFallbackElement: boot,
    lazy: () => safeComponent(() => import('../modules/auth/find-password/FindPasswordPage').then((m) => m.FindPasswordPage)),
  },
  {
    id: 'layout',
    loader: guardLoader,
    // the guards run on every navigation, not only when the layout first mounts
    shouldRevalidate: () => true,
    errorElement: <RouteError />,
    // the first signed-in load waits for user info and menu; the progress bar shows it
    hydrateFallbackElement: boot,
    lazy: () => safeComponent(() => import('../shell/layout/AppLayout').then((m) => m.AppLayout)),
    children: [
      {
        path: '/redirect/:path',
        handle: { name: REDIRECT_NAME, meta: { locale: 'menu.redirect', requiresAuth: true, roles: ['*'] } } satisfies RouteHandle,
        lazy: () => safeComponent(() => import('../shell/RedirectPage').then((m) => m.RedirectPage)),
      },
      ...pageRoutes,
      ...parentRedirects,
    ],
  },
  {
    path: '*',
    hydrateFallbackElement: boot,
    lazy: () => safeComponent(() => import('../modules/exception/NotFoundPage').then((m) => m.NotFoundPage)),
  },
]);
