/**
 * One CSV record (decoded text, line end excluded) → its fields, by RFC 4180: a field that
 * starts with a quote runs to the closing quote, with "" standing for one quote, and may hold the
 * delimiter, CR and LF. The same rules as the byte splitter (splitter.ts): a quote elsewhere in an
 * unquoted field is an ordinary character. Text after a closing quote, before the next delimiter,
 * and a quote that is never closed are bad quoting: the fields are still returned (the text kept
 * as written), and `badQuoting` says so.
 */
export interface ParsedFields {
  fields: string[];
  badQuoting: boolean;
}

export function parseFields(s: string, delimiter: string): ParsedFields {
  if (s.indexOf('"') === -1) return { fields: s.split(delimiter), badQuoting: false };
  const fields: string[] = [];
  let bad = false;
  const n = s.length;
  let i = 0;
  for (;;) {
    if (s.charCodeAt(i) === 34 /* " */) {
      // A quoted field.
      let value = '';
      let from = i + 1;
      let closed = false;
      for (;;) {
        const q = s.indexOf('"', from);
        if (q === -1) {
          value += s.slice(from);
          i = n;
          break;
        }
        value += s.slice(from, q);
        if (s.charCodeAt(q + 1) === 34) {
          value += '"';
          from = q + 2;
          continue;
        }
        closed = true;
        i = q + 1;
        break;
      }
      if (!closed) {
        bad = true;
        fields.push(value);
        return { fields, badQuoting: bad };
      }
      if (i < n && !s.startsWith(delimiter, i)) {
        // Text after the closing quote: kept, but the record is not well-formed.
        bad = true;
        const j = s.indexOf(delimiter, i);
        value += j === -1 ? s.slice(i) : s.slice(i, j);
        i = j === -1 ? n : j;
      }
      fields.push(value);
      if (i >= n) return { fields, badQuoting: bad };
      i += delimiter.length;
      if (i === n) {
        fields.push('');
        return { fields, badQuoting: bad };
      }
    } else {
      const j = s.indexOf(delimiter, i);
      if (j === -1) {
        fields.push(s.slice(i));
        return { fields, badQuoting: bad };
      }
      fields.push(s.slice(i, j));
      i = j + delimiter.length;
      if (i === n) {
        fields.push('');
        return { fields, badQuoting: bad };
      }
    }
  }
}
