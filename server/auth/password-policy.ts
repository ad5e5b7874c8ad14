import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

export const MIN_PASSWORD_LENGTH = 12;
/** zxcvbn's 0-4 scale: 3 is "safely unguessable: moderate protection from offline slow-hash scenario" */
export const MIN_PASSWORD_SCORE = 3;
export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
export const PASSWORD_TOO_WEAK =
  'Password is too easy to guess (a common password, word or pattern). Use a longer passphrase of several unrelated words.';

// the dictionaries are large: built once, on first use, and only on the server
let checker: ZxcvbnFactory | undefined;
function strength(): ZxcvbnFactory {
  checker ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return checker;
}

/**
 * The one password rule, for every place a password is set (create-user, reset-password): at least 12 characters
 * and not guessable (common and leaked-style passwords, words, dates, keyboard runs, the account's own e-mail
 * or company). Answers the problems, empty when the password is fine.
 */
export function passwordProblems(password: string, context: string[] = []): string[] {
  if (password.length < MIN_PASSWORD_LENGTH) return [PASSWORD_TOO_SHORT];
  const words = context
    .flatMap((text) => [text.toLowerCase(), ...text.toLowerCase().split(/[^a-z0-9]+/)])
    .filter((w) => w.length >= 3);
  const result = strength().check(password, words);
  if (result.score >= MIN_PASSWORD_SCORE) return [];
  const warning = result.feedback.warning;
  return [warning ? `${PASSWORD_TOO_WEAK} ${warning}` : PASSWORD_TOO_WEAK];
}
