import type { Permission } from "@orrery/model";
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
    /** The console's language, for the identity manager's pages (OpenID Connect's ui_locales). */
    language?: string;
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
  /**
   * The permissions the identity manager gives now, from the grant kept with the session; undefined
   * when the grant is no longer valid (the session ends). Providers without it keep sign-in's.
   */
  refresh?(grant: string): Promise<Permission[] | undefined>;
  /** Where the browser ends the identity manager's own session after signing out of Orrery. */
  signOutUrl?: string;
  /** What is wrong with the provider's settings, said at start-up and on the sign-in page; undefined when all is well. */
  check?(): Promise<string | undefined>;
  /** The name users know the application by in the identity manager, when it has one and it can be read. */
  applicationName?(): Promise<string | undefined>;
  /** Releases what the provider holds at the identity manager (its management token). */
  close?(): Promise<void>;
}

export class LoginFailed extends Error {}
