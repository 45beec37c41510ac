/**
 * The country list of spec 01 §3 (destination rules): every ISO 3166-1 alpha-2 code with its
 * English name, read from the ICU data Node.js ships (Intl.DisplayNames) rather than kept here
 * by hand. Codes ICU names that are no current country are left out: groupings (EU, EZ, UN),
 * exceptional reservations (AC, CP, DG, EA, IC, TA), codes withdrawn from ISO 3166-1 (AN, BU,
 * CS, DD, FX, SU, TP, YD, YU, ZR), Sark (CQ), and the user-assigned ranges (QM-QZ, XA-XZ)
 * but Kosovo's XK, which is in wide use.
 */
export interface Country {
  name: string;
  code: string;
}

const NOT_COUNTRIES = new Set(
  'AC AN BU CP CQ CS DD DG EA EU EZ FX IC SU TA TP UN YD YU ZR ZZ'.split(' '),
);
const userAssigned = (code: string) => /^(Q[M-Z]|X[A-Z]|AA|ZZ)$/.test(code) && code !== 'XK';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function readCountries(): Country[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const countries: Country[] = [];
  for (const first of LETTERS) {
    for (const second of LETTERS) {
      const code = `${first}${second}`;
      if (NOT_COUNTRIES.has(code) || userAssigned(code)) continue;
      const name = names.of(code);
      if (name && name !== code) countries.push({ name, code });
    }
  }
  return countries.sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

export const COUNTRIES: readonly Country[] = readCountries();
export const COUNTRY_CODES: ReadonlySet<string> = new Set(COUNTRIES.map((c) => c.code));
