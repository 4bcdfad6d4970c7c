import type { Identity } from "../sessions.ts";

/** One identity manager the API can run the authorization-code flow against. */
export interface IdentityProvider {
  name: "dev" | "keyrock" | "oidc";
  /** Where to send the browser to sign in. */
  authorizeUrl(request: {
    state: string;
    codeChallenge: string;
    nonce: string;
    redirectUri: string;
  }): Promise<string>;
  /** Exchanges the code for the user's identity and permissions. */
  finish(request: {
    code: string;
    codeVerifier: string;
    nonce: string;
    state: string;
    redirectUri: string;
    callbackUrl: URL;
  }): Promise<Omit<Identity, "expiresAt"> & { expiresAt?: Date }>;
}

export class LoginFailed extends Error {}
