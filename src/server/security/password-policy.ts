// What a researcher's password must be (issue 28 item 6): long enough, not one of the
// passwords every attacker tries first, not one character over and over or a run of the
// keyboard, and not the account's own address. Checked when an account is made.

/** The fewest characters a password may have. */
export const MIN_PASSWORD_LENGTH = 10;

// Passwords at the top of every published leak list (and their obvious longer forms); a
// guesser tries these first, whatever the rate limit.
const COMMON = new Set([
  "password",
  "password1",
  "password12",
  "password123",
  "password1234",
  "passw0rd",
  "p@ssw0rd",
  "p@ssword",
  "123456789",
  "1234567890",
  "12345678910",
  "0123456789",
  "987654321",
  "9876543210",
  "qwertyuiop",
  "qwerty1234",
  "qwerty12345",
  "qwerty123456",
  "1q2w3e4r5t",
  "1qaz2wsx3edc",
  "zaq12wsx",
  "asdfghjkl",
  "asdfghjkl1",
  "zxcvbnm123",
  "iloveyou",
  "iloveyou1",
  "iloveyou123",
  "letmein123",
  "welcome123",
  "welcome1234",
  "admin12345",
  "administrator",
  "changeme123",
  "football123",
  "baseball123",
  "sunshine123",
  "princess123",
  "superman123",
  "trustno1234",
  "starwars123",
  "dragon12345",
  "monkey12345",
  "michael123",
  "computer123",
  "internet123",
  "secret1234",
  "abcdefghij",
  "abcd123456",
  "abc1234567",
  "researcher",
  "researcher1",
  "metricelicitation",
]);

/**
 * Whether `s` is a short pattern repeated ("aaaa", "abab", "123123"), or mostly a run of
 * digits or letters up or down ("1234567890123", "abcdefgh"; a digit's 9 to 0 counts as a
 * step).
 */
function trivial(s: string): boolean {
  if (/^(.{1,4})\1+(.{0,3})$/.test(s)) return true;
  const codes = [...s].map((c) => c.charCodeAt(0));
  const step = (a: string, b: string, d: number) =>
    Math.abs(d) === 1 || (/\d/.test(a) && /\d/.test(b) && Math.abs(d) === 9);
  let runs = 0;
  for (let i = 1; i < codes.length; i++)
    if (step(s[i - 1]!, s[i]!, codes[i]! - codes[i - 1]!)) runs++;
  return runs >= 0.8 * (codes.length - 1);
}

/**
 * Why a password may not be used (null: it may). `email`: the account's address (its name
 * part may not be the password).
 * @example passwordProblem("password", "r@example.org") // "the password needs at least 10 characters"
 */
export function passwordProblem(password: string, email = ""): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `the password needs at least ${MIN_PASSWORD_LENGTH} characters`;
  const lower = password.toLowerCase();
  if (COMMON.has(lower) || COMMON.has(lower.replace(/[!.?]+$/, "")))
    return "the password is one of the most common passwords; choose another";
  if (trivial(lower)) return "the password is one character repeated or a run of the keyboard";
  const name = email.trim().toLowerCase().split("@")[0] ?? "";
  if (name.length >= 4 && lower.includes(name))
    return "the password may not contain the account's e-mail name";
  return null;
}

/**
 * Whether `email` looks like an e-mail address: a name, an @ and a domain with a dot, no
 * spaces (the same test wherever an address is taken).
 * @example isEmailAddress("x@y") // false
 */
export function isEmailAddress(email: string): boolean {
  return /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/.test(email);
}
