/**
 * `metric-elicitation/data`: CSV parsing, classification datasets, splits, standardisation,
 * class-probability models and the predictions file format. Pure: it parses text you read
 * yourself (no file or network I/O), safe in a browser.
 */
export * from "../data/index.ts";
export * from "../data/models/index.ts";
