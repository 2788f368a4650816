/**
 * The address fields a rule can place on a line, as small integers so that the hot path works on
 * one fixed-size array per call instead of objects. `state` is the resolved state: a code or a
 * name, depending on the destination's rule (see state.ts).
 */
export const FIELD_NAMES = [
  'additionaldata', 'street', 'housenumber', 'district', 'city', 'county', 'state', 'zip',
] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

export const F = Object.freeze({
  additionaldata: 0, street: 1, housenumber: 2, district: 3, city: 4, county: 5, state: 6, zip: 7,
} as const satisfies Record<FieldName, number>);

export const FIELD_COUNT = FIELD_NAMES.length;

/** One value per field; '' = absent. */
export type FieldValues = string[];
