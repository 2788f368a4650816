/**
 * The request a Pelias acceptance case's input (`in`) becomes: `text` or `address` as free text
 * (`address` wins), and the structured fields the service takes. Empty when nothing maps.
 */
export function peliasRequest(i: Record<string, unknown>): Record<string, string> {
  const req: Record<string, string> = {};
  if (typeof i.text === 'string') req.address = i.text;
  if (typeof i.address === 'string') req.address = i.address;
  if (typeof i.postalcode === 'string') req.zip = i.postalcode;
  if (typeof i.locality === 'string') req.city = i.locality;
  if (typeof i.region === 'string') req.state = i.region;
  if (typeof i.country === 'string') req.country = i.country;
  return req;
}
