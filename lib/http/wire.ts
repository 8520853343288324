import type { z } from 'zod';

// The answer as the browser receives it (CONTRACT.md "Wire rules"), as types: toWire (casing.ts)
// writes Dates as ISO strings and leaves null and undefined members out. The console and account UI
// read the API's answers through these, derived from the same response schemas the route wrapper
// parses through, so a field changed in a schema changes (and type-checks) the UI that shows it.
// Type-only: importing it pulls nothing into a browser bundle.

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Keys whose value may be null or undefined: optional on the wire. */
type AbsentableKeys<T> = { [K in keyof T]-?: null extends T[K] ? K : undefined extends T[K] ? K : never }[keyof T];

type WireObject<T> = Simplify<{ [K in Exclude<keyof T, AbsentableKeys<T>>]: Wire<T[K]> } & { [K in AbsentableKeys<T>]?: Wire<NonNullable<T[K]>> }>;

/** A value after toWire: Dates become strings, null or undefined members are omitted. */
export type Wire<T> = T extends Date ? string : T extends readonly (infer E)[] ? Wire<E>[] : T extends object ? WireObject<T> : T;

/** What a response schema's answer looks like on the wire. */
export type WireOf<S extends z.ZodType> = Wire<z.output<S>>;
