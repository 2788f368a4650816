import { describe, expect, it } from 'vitest';
import { closestOption, withSuggestion } from '../../src/cli/suggest-option.ts';

const USAGE = `usage: addrflow run --op search|lines [--input FILE|-] [--output FILE|-] [--prefer-country CC]
  --max-rejected N   …`;

describe('a mistyped flag gets the closest one the usage lists', () => {
  it('within two edits, swaps, underscores and a value glued on', () => {
    expect(closestOption('--inptu', USAGE)).toBe('--input');
    expect(closestOption('--ouptut', USAGE)).toBe('--output');
    expect(closestOption('--prefer_country', USAGE)).toBe('--prefer-country');
    expect(closestOption('--max-rejectd=3', USAGE)).toBe('--max-rejected');
    expect(closestOption('--frobnicate', USAGE)).toBeUndefined();
  });

  it("cuts parseArgs' sentence about positional arguments and names the suggestion on the one line", () => {
    const parseArgs = `ADDR_ERR_USAGE: Unknown option '--inptu'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "--inptu"`;
    expect(withSuggestion(parseArgs, USAGE)).toBe(`ADDR_ERR_USAGE: Unknown option '--inptu': did you mean --input?`);
    expect(withSuggestion(`ADDR_ERR_USAGE: Unknown option '--zzz'. To specify …`, USAGE)).toBe(`ADDR_ERR_USAGE: Unknown option '--zzz'`);
    expect(withSuggestion('ADDR_ERR_USAGE: --op must be search or lines, got lookup', USAGE)).toBe('ADDR_ERR_USAGE: --op must be search or lines, got lookup');
  });
});
