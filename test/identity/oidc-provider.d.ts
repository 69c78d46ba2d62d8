/** The part of `oidc-provider` (which ships no types) that the test fixture uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** The provider's configuration, as the fixture writes it. */
  export interface ProviderConfiguration {
    readonly [key: string]: unknown;
  }

  /** An OpenID Provider. */
  export default class Provider {
    constructor(issuer: string, configuration: ProviderConfiguration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
