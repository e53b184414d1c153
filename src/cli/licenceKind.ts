/**
 * What kind of licence a manifest's `provenance.license` states, read from the SPDX identifier it
 * starts with ("AGPL-3.0 (Ultralytics, ...)" is AGPL whatever the rest says): permissive
 * licences let a company ship the weights in a closed product with a notice; copyleft ones do not
 * (AGPL-3.0 reaches a network service's users too), non-commercial ones not at all; anything else
 * is unknown and never counted as permissive.
 */
export const LICENCE_KINDS = ['permissive', 'copyleft', 'non-commercial', 'unknown'] as const;
export type LicenceKind = (typeof LICENCE_KINDS)[number];

const PERMISSIVE = new Set([
  'apache-2.0',
  'mit',
  'bsd-2-clause',
  'bsd-3-clause',
  'isc',
  'zlib',
  'cc0-1.0',
  'cc-by-4.0',
  'unlicense',
]);

const COPYLEFT = /^(a?gpl|lgpl|mpl|epl|cddl|cc-by-sa)(-|$)/;
const NON_COMMERCIAL = /^cc-by-nc(-|$)/;

/** The licence's kind from its leading SPDX identifier (case and a trailing "+"/"-only" ignored). */
export function licenceKind(license: string | undefined): LicenceKind {
  const id = (license ?? '')
    .trim()
    .split(/[\s(;,]/)[0]!
    .toLowerCase()
    .replace(/(\+|-only|-or-later)$/, '');
  if (PERMISSIVE.has(id)) return 'permissive';
  if (COPYLEFT.test(id)) return 'copyleft';
  if (NON_COMMERCIAL.test(id)) return 'non-commercial';
  return 'unknown';
}
