// The built-in sandbox partner's texts (PROVIDER_MODE=sandbox): its page and API answer in English only, as
// the partner bank it stands in for would.

export const SANDBOX_MSG = {
  /** A link without its key (a bare utmCode): refused whether or not the opening exists. */
  keyMissing: "This page opens only from the full link Tierdesk gave for the sale: the link's key is missing",
  /** An unknown utmCode and a wrong key get the same answer, so neither tells whether the opening exists. */
  noSuchOpening: 'No account opening in the sandbox matches this link',
  notNow: (status: string, action: string) => `The account is ${status}: it cannot be ${action} now`,
  unsigned: "The sandbox partner answers only this Tierdesk server's signed calls: the signature is missing",
  badSignature:
    "The sandbox partner answers only this Tierdesk server's signed calls: the signature is invalid",
  staleSignature: 'The signature is too old or too far in the future',
  tooMany: (minutes: number) =>
    `Too many requests to the sandbox partner from this network. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
} as const;

/** PROVIDER_MODE: `sandbox`, Tierdesk plays the partner (sales are simulated); `http`, the real partner's API. */
export const PROVIDER_MODES = ['sandbox', 'http'] as const;
export type ProviderMode = (typeof PROVIDER_MODES)[number];

/** `GET /api/v1/partner/mode` (public): the panel shows its sandbox banner from this answer. */
export interface PartnerModeResult {
  providerMode: ProviderMode;
}
