import { XMLParser, XMLValidator } from 'fast-xml-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderXmlBatch, renderXmlError, renderXmlRecord, xmlText } from '../../src/contract/render-xml.ts';

const parser = new XMLParser({ trimValues: false, parseTagValue: false, processEntities: true, htmlEntities: true, ignoreDeclaration: true });
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

describe('XML rendering', () => {
  it('escapes markup and keeps \\r through a parser', () => {
    expect(xmlText(`<a & "b" 'c'>\r`)).toBe('&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;&#13;');
    const x = renderXmlRecord({ street: 'A & B <C>', city: 'x\r\ny', addresslinestatuscode: 0 });
    expect(XMLValidator.validate(x)).toBe(true);
    expect(parser.parse(x).response).toEqual({ street: 'A & B <C>', city: 'x\r\ny', addresslinestatuscode: '0' });
  });
  it('replaces characters XML 1.0 cannot carry by U+FFFD', () => {
    const x = renderXmlRecord({ a: 'x\u0000y\u0008\uFFFE\uD800z😀' });
    expect(x).not.toMatch(XML_FORBIDDEN);
    expect(parser.parse(x).response.a).toBe('x\uFFFDy\uFFFD\uFFFD\uFFFDz😀');
  });
  it('batches and errors have the README item 2 shape', () => {
    const b = parser.parse(renderXmlBatch([{ a: '1' }, { errorcode: 412, errormessage: 'bad <x>' }]));
    expect(b.responses.response).toEqual([{ a: '1' }, { errorcode: '412', errormessage: 'bad <x>' }]);
    expect(parser.parse(renderXmlError({ errorcode: 401, errormessage: 'no & no' }))).toEqual({ error: { errorcode: '401', errormessage: 'no & no' } });
  });
  it('any string survives the round trip, except the replaced characters (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => {
      const x = renderXmlRecord({ v: s });
      expect(XMLValidator.validate(x)).toBe(true);
      const back = parser.parse(x).response.v as string;
      expect(back).toBe(s.replace(new RegExp(XML_FORBIDDEN.source, 'gu'), '\uFFFD'));
    }), { numRuns: 2000 });
  });
});
