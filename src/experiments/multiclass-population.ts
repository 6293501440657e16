/**
 * Moved to `src/population/multiclass.ts` (a population is a domain concept, not an
 * experiment; issue 13 item 7). This re-export stays only for
 * `src/experiments/reproduce-adaptive.ts` and work in progress that still import the old path
 * (being edited elsewhere); import from `../population/multiclass.ts` instead.
 * @deprecated
 */
export * from "../population/multiclass.ts";
