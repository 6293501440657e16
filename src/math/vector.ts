/**
 * Small vector helpers on plain arrays and Float64Arrays.
 *
 * @example
 * dot([1, 2], [3, 4]); // 11
 * normalizeL2([3, 4]); // [0.6, 0.8]
 */
export type Vec = ArrayLike<number>;

/** Inner product. */
export function dot(a: Vec, b: Vec): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Euclidean norm. */
export function norm2(a: Vec): number {
  return Math.sqrt(dot(a, a));
}

/** Sum of absolute values. */
export function norm1(a: Vec): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]!);
  return s;
}

/** Largest absolute value. */
export function normInf(a: Vec): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s = Math.max(s, Math.abs(a[i]!));
  return s;
}

/** Copy scaled to unit L2 norm; throws on the zero vector. */
export function normalizeL2(a: Vec): number[] {
  const n = norm2(a);
  if (!(n > 0)) throw new RangeError("cannot normalise the zero vector");
  return Array.from(a, (x) => x / n);
}

/** Copy scaled to unit L1 norm; throws on the zero vector. */
export function normalizeL1(a: Vec): number[] {
  const n = norm1(a);
  if (!(n > 0)) throw new RangeError("cannot normalise the zero vector");
  return Array.from(a, (x) => x / n);
}

/** Element-wise a - b. */
export function sub(a: Vec, b: Vec): number[] {
  return Array.from(a, (x, i) => x - b[i]!);
}

/** Element-wise a + b. */
export function add(a: Vec, b: Vec): number[] {
  return Array.from(a, (x, i) => x + b[i]!);
}

/** a * s. */
export function scale(a: Vec, s: number): number[] {
  return Array.from(a, (x) => x * s);
}
