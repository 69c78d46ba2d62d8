/**
 * console: the operator's console at /console — server-rendered pages (overview, servers and tools, audit) over
 * the admin API, behind the admin roles, with sign-in sessions, CSRF tokens, same-origin writes and a strict CSP.
 */
export { createConsole } from './console-app.tsx';
export {
  clientKeyOf,
  createSignInLimiter,
  SIGN_IN_LIMIT_DEFAULTS,
  type SignInLimiter,
} from './sign-in-limit.ts';
