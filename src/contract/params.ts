/**
 * The spec's parameter tables, as data. Nothing else in the code base knows a min or max length.
 * Source: ../shared/spec/address-service-spec.md, "Endpoints" and "Limits".
 */
export type Op = 'search' | 'lines';
export const OPS: readonly Op[] = ['search', 'lines'];

export interface ParamDef {
  readonly name: string;
  readonly required: boolean;
  readonly type: 'string' | 'integer';
  /** String: character length bounds. Integer: value bounds. */
  readonly min: number;
  readonly max: number;
  /** Allowed values (compared case-insensitively), when the spec lists them. */
  readonly allowed?: readonly string[];
}

const str = (name: string, min: number, max: number, extra: Partial<ParamDef> = {}): ParamDef =>
  Object.freeze({ name, required: false, type: 'string', min, max, ...extra });

/** Credentials: top-level only, never inside a batch element. */
export const CREDENTIAL_PARAMS: readonly ParamDef[] = [
  str('license', 29, 29, { required: true }),
  str('guid', 30, 40, { required: true }),
];

/** Common options, allowed top-level and inside batch elements. */
export const OPTION_PARAMS: readonly ParamDef[] = [
  str('requestproof', 0, 1, { allowed: ['', '0', '1'] }),
  str('returnavailablecredits', 0, 1, { allowed: ['', '0', '1'] }),
  str('responseformat', 3, 4, { allowed: ['xml', 'json'] }),
];

export const SEARCH_PARAMS: readonly ParamDef[] = [
  str('address', 1, 255),
  str('country', 1, 255),
  str('state', 1, 255),
  str('county', 1, 255),
  str('city', 1, 255),
  str('zip', 1, 255),
  str('district', 1, 255),
  str('street', 1, 255),
  str('housenumber', 1, 255),
  str('locale', 0, 5),
];

export const LINES_PARAMS: readonly ParamDef[] = [
  str('countrycode', 2, 2, { required: true }),
  str('sendercountrycode', 2, 2, { required: true }),
  str('countrynamelanguage', 0, 2),
  str('county', 1, 255),
  str('state', 1, 255),
  str('statename', 1, 255),
  str('statecode', 1, 255),
  str('district', 1, 255),
  str('city', 1, 255),
  str('zip', 1, 50),
  str('street', 1, 255),
  str('housenumber', 1, 50),
  str('additionaldata', 1, 255),
  Object.freeze({ name: 'maxcharsperline', required: false, type: 'integer', min: 20, max: 80 } as ParamDef),
];

/**
 * Parameters the spec does not have: addrflow's extensions, per op (allowed top-level and inside
 * batch elements, like the options). `explain=1` adds the answer's explanation (explain.ts) to a
 * search record; without it the spec's keys stay exactly as they are. The OpenAPI marks them
 * `x-addrflow-extension`.
 */
export const EXTENSION_PARAMS: Readonly<Record<Op, readonly ParamDef[]>> = {
  search: [str('explain', 0, 1, { allowed: ['', '0', '1'] })],
  lines: [],
};

export const OP_PARAMS: Readonly<Record<Op, readonly ParamDef[]>> = {
  search: SEARCH_PARAMS,
  lines: LINES_PARAMS,
};

/** Batch mode. */
export const MAX_BATCH_ELEMENTS = 5000;

/** Prices in credits per processed record. */
export const PRICES: Readonly<Record<Op, number>> = { search: 27, lines: 20 };

/** HTTP paths of the two operations. */
export const OP_PATHS: Readonly<Record<Op, string>> = {
  search: '/address/search',
  lines: '/address/lines',
};
