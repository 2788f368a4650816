/** Escaping and number formatting for the job report's HTML and SVG. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or attribute value → markup that can only ever be text (every input value goes here). */
export function esc(v: unknown): string {
  return String(v).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

export function fmt(n: number): string {
  return n.toLocaleString('en');
}
