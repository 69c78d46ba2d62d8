/** Identity: who is calling. */
export { ANONYMOUS, type Principal, type PrincipalSource } from './principal.ts';
