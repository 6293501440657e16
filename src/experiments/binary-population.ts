/**
 * Moved to `src/population/binary.ts` (a population is a domain concept, not an experiment;
 * issue 13 item 7). This re-export stays only for `src/server/participant/service.ts`, which
 * is being edited elsewhere; import from `../population/binary.ts` instead.
 * @deprecated
 */
export * from "../population/binary.ts";
