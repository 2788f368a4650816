/**
 * The tokens of a text from its folded form: foldTokens(s) is foldedTokens(foldText(s))
 * (normalize.ts: both split the folded text at its single spaces), so a stage that has folded a
 * text already need not fold it again for its tokens.
 */
export function foldedTokens(fold: string): string[] {
  return fold === '' ? [] : fold.split(' ');
}
