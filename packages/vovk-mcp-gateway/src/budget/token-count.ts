// How many tokens a text costs a model, estimated one way everywhere: o200k_base (gpt-tokenizer), loaded on first need.
import 'server-only';

type Tokenizer = {
  countTokens(text: string): number;
  isWithinTokenLimit(text: string, limit: number): number | false;
};

let tokenizer: Promise<Tokenizer> | undefined;

/** The o200k_base tokenizer, loaded when a text first needs counting (≈ 0.3 s once; short results never load it). */
function loadedTokenizer(): Promise<Tokenizer> {
  tokenizer ??= import('gpt-tokenizer/encoding/o200k_base');
  return tokenizer;
}

/** The tokens of `text` (o200k_base). */
export async function countTokens(text: string): Promise<number> {
  return (await loadedTokenizer()).countTokens(text);
}

/**
 * Whether `text` costs at most `limit` tokens. A text of at most `limit` UTF-8 bytes does without counting (a token
 * stands for at least one byte; a UTF-16 unit is at most 3 bytes); a longer one is counted only until it passes the
 * limit, so the check costs at most a budget's worth of tokenizing.
 */
export async function fitsTokens(text: string, limit: number): Promise<boolean> {
  if (text.length * 3 <= limit || Buffer.byteLength(text, 'utf8') <= limit) return true;
  return (await loadedTokenizer()).isWithinTokenLimit(text, limit) !== false;
}
