import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet } from 'jose';
import {
  licenceClaimsSchema,
  licenceMessages,
  licencePaths,
  type LicenceClaims,
} from '@app/contract/licences';

/*
 * The machine's licence, as the app keeps and obeys it (docs/device-api.md, "Licence"): fetched at
 * start, whenever a heartbeat names a newer version and when half of its offline validity has
 * passed; verified with the server's public keys alone; the last good one kept. Before a treatment
 * starts, the app refuses when the licence locks the machine or has expired (the machine has not
 * reached the server for the offline validity).
 */

export type LicenceExpectation = {
  /** The server's address as the app was set up with it: the licence's `iss`. */
  issuer: string;
  /** This machine's serial number: the licence's `sub`. */
  serial: string;
  /** The machine's clock. */
  now: Date;
};

/**
 * The claims of a licence that verifies: signed with EdDSA by a key of `keys`, issued by `issuer`
 * for this machine, not expired, with every claim of the contract. Throws otherwise (a forged,
 * altered or unsigned token, another machine's, one signed by a key the server does not publish).
 */
export async function verifyLicence(
  token: string,
  keys: JSONWebKeySet,
  expected: LicenceExpectation,
): Promise<LicenceClaims> {
  const { payload } = await jwtVerify(token, createLocalJWKSet(keys), {
    algorithms: ['EdDSA'],
    issuer: expected.issuer.replace(/\/+$/, ''),
    subject: expected.serial,
    currentDate: expected.now,
    requiredClaims: ['iat', 'exp'],
  });
  return licenceClaimsSchema.parse(payload);
}

export type LicenceSource = {
  /** The server's address, where its public keys are. */
  baseUrl: string;
  issuer: string;
  serial: () => string;
  now: () => Date;
  /** GET /api/v1/app/licence with the machine's credential. */
  fetchToken: () => Promise<{ token: string }>;
};

export class HeldLicence {
  token: string | null = null;
  claims: LicenceClaims | null = null;
  private keys: JSONWebKeySet | null = null;

  constructor(private readonly source: LicenceSource) {}

  /** Whether to fetch now: none held, a newer version named by the heartbeat, or half its validity gone. */
  wants(announcedVersion?: number): boolean {
    const held = this.claims;
    if (!held) return true;
    if (announcedVersion !== undefined && announcedVersion > held.ver) return true;
    return this.source.now().getTime() / 1000 >= (held.iat + held.exp) / 2;
  }

  /**
   * Fetches the licence and keeps it when it verifies. Answers null when kept, else why it was not
   * (the licence held before stays). A fetch that fails (offline) throws, keeping it too.
   */
  async refresh(): Promise<string | null> {
    const { token } = await this.source.fetchToken();
    return this.accept(token);
  }

  /** Verifies a token; keeps it only when it verifies (answers null), else answers why. */
  async accept(token: string): Promise<string | null> {
    const expected = { issuer: this.source.issuer, serial: this.source.serial(), now: this.source.now() };
    try {
      let claims: LicenceClaims;
      try {
        claims = await verifyLicence(token, this.keys ?? (await this.fetchKeys()), expected);
      } catch (error) {
        // Keys rotated since they were fetched: fetch them again, once.
        if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
        claims = await verifyLicence(token, await this.fetchKeys(), expected);
      }
      this.token = token;
      this.claims = claims;
      return null;
    } catch (error) {
      return `${licenceMessages.tokenRejected} (${(error as Error).message})`;
    }
  }

  /** Why a treatment may not start now, or null when it may. */
  refusal(): string | null {
    const held = this.claims;
    if (held?.locked) return licenceMessages.refusedLocked(held.state);
    if (!held || this.source.now().getTime() / 1000 >= held.exp) return licenceMessages.refusedStale;
    return null;
  }

  private async fetchKeys(): Promise<JSONWebKeySet> {
    const res = await fetch(new URL(licencePaths.jwks, this.source.baseUrl), {
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`GET ${licencePaths.jwks} answered ${res.status}`);
    this.keys = (await res.json()) as JSONWebKeySet;
    return this.keys;
  }
}
