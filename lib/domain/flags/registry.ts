import type { z } from 'zod';
import { isAppError, validationError } from '../../errors/app-error';
import { issuesToErrors, matchKeys } from '../../web/casing';
import type { RealmRecord } from '../../realm/realm-record';

// The flag and entitlement registry (spec 4.10, docs/flags.md). A class is declared once with its
// properties: each has a value type (zod) and a resolver, either plain (`(ctx) => value`) or
// contextual (`(ctx, input) => value`, the input validated by its own schema). The product reads a
// property through `flag(ctx, Class.Property)`, the evaluation routes through `evaluateProperty`;
// both run the same resolver, so what a client is told is what the product does.

/** What a resolver may read: the realm (always) and, in a request, the App it came through. */
export type FlagContext = { realm: RealmRecord; appId?: string };

type PlainSpec<V extends z.ZodType> = { kind: 'plain'; value: V; resolve(ctx: FlagContext): Promise<z.input<V>> | z.input<V> };
type ContextualSpec<V extends z.ZodType, I extends z.ZodType> = {
  kind: 'contextual';
  value: V;
  input: I;
  resolve(ctx: FlagContext, input: z.output<I>): Promise<z.input<V>> | z.input<V>;
};
type AnySpec = PlainSpec<z.ZodType> | ContextualSpec<z.ZodType, z.ZodType>;

/** A plain property: evaluated with GET, no input. */
export function plain<V extends z.ZodType>(value: V, resolve: PlainSpec<V>['resolve']): PlainSpec<V> {
  return { kind: 'plain', value, resolve };
}

/** A contextual property: evaluated with POST, its body validated by `input` and passed to the resolver. */
export function contextual<V extends z.ZodType, I extends z.ZodType>(value: V, input: I, resolve: ContextualSpec<V, I>['resolve']): ContextualSpec<V, I> {
  return { kind: 'contextual', value, input, resolve };
}

/** One declared property, carrying its class and name: the typed key `flag()` takes. */
export type FlagProperty<S extends AnySpec = AnySpec> = S & { className: string; propertyName: string; key: string };

export type FlagClass<P extends Record<string, AnySpec> = Record<string, AnySpec>> = { readonly [K in keyof P]: FlagProperty<P[K]> } & {
  readonly [CLASS]: { name: string; properties: ReadonlyMap<string, FlagProperty> };
};

const CLASS = Symbol('flag-class');
const NAME = /^[A-Za-z][A-Za-z0-9]*$/;

/** Declares a class of flags or entitlements; the names become the route's path segments. */
export function defineFlagClass<P extends Record<string, AnySpec>>(name: string, properties: P): FlagClass<P> {
  if (!NAME.test(name)) throw new Error(`Flag class name ${name} must be letters and digits.`);
  const byName = new Map<string, FlagProperty>();
  const out: Record<string, FlagProperty> = {};
  for (const [propertyName, spec] of Object.entries(properties)) {
    if (!NAME.test(propertyName)) throw new Error(`Flag property name ${name}.${propertyName} must be letters and digits.`);
    const property: FlagProperty = { ...spec, className: name, propertyName, key: `${name}/${propertyName}` };
    byName.set(propertyName, property);
    out[propertyName] = property;
  }
  return Object.assign(out, { [CLASS]: { name, properties: byName } }) as unknown as FlagClass<P>;
}

export function className(c: FlagClass): string {
  return c[CLASS].name;
}

export function propertiesOf(c: FlagClass): FlagProperty[] {
  return [...c[CLASS].properties.values()];
}

/** The property `ClassName/PropertyName` among `classes` (exact spelling, as declared), or undefined. */
export function findProperty(classes: readonly FlagClass[], name: string, property: string): FlagProperty | undefined {
  return classes.find((c) => c[CLASS].name === name)?.[CLASS].properties.get(property);
}

type ValueOf<S> = S extends { value: infer V extends z.ZodType } ? z.output<V> : never;

/**
 * The product's typed accessor: `await flag(ctx, RealmFeatures.Dcr)` or, for a contextual property,
 * `await flag(ctx, AppFeatures.Dcr, { AppId })`. The resolver's answer is checked against the value type.
 */
export async function flag<S extends PlainSpec<z.ZodType>>(ctx: FlagContext, property: FlagProperty<S>): Promise<ValueOf<S>>;
export async function flag<S extends ContextualSpec<z.ZodType, z.ZodType>>(
  ctx: FlagContext,
  property: FlagProperty<S>,
  input: z.input<S['input']>,
): Promise<ValueOf<S>>;
export async function flag(ctx: FlagContext, property: FlagProperty, input?: unknown): Promise<unknown> {
  if (property.kind === 'plain') return property.value.parse(await property.resolve(ctx));
  return property.value.parse(await property.resolve(ctx, property.input.parse(input)));
}

/**
 * A resolver throws this when it cannot answer and its message is safe to show: the evaluation
 * route answers 500 with it as `detail`. Any other error is logged and answered with a generic one.
 */
export class FlagEvaluationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlagEvaluationError';
  }
}

export const FLAG_EVALUATION_FAILED = 'Flag evaluation failed';
const GENERIC_DETAIL = 'The value could not be evaluated.';

export type Evaluation = { ok: true; value: unknown } | { ok: false; detail: string; cause: unknown };

/**
 * Evaluates a property for the evaluation routes: validates a contextual property's input (400
 * `Validation.Failed`, property names matched case-insensitively), runs the resolver and checks its
 * answer (`inputParsed`: the route wrapper already validated the body). An AppError from the resolver (an unknown App: 404) propagates as the problem it is; any
 * other failure becomes `{ ok: false }` with a detail safe to show.
 */
export async function evaluateProperty(
  ctx: FlagContext,
  property: FlagProperty,
  rawInput: unknown,
  options: { inputParsed?: boolean } = {},
): Promise<Evaluation> {
  let input: unknown = rawInput;
  if (property.kind === 'contextual' && !options.inputParsed) {
    const parsed = property.input.safeParse(matchKeys(rawInput ?? {}, property.input));
    if (!parsed.success) throw validationError(issuesToErrors(parsed.error.issues), 'The request body is not valid.');
    input = parsed.data;
  }
  try {
    const raw = property.kind === 'plain' ? await property.resolve(ctx) : await property.resolve(ctx, input);
    const value = property.value.safeParse(raw);
    if (!value.success) return { ok: false, detail: GENERIC_DETAIL, cause: value.error };
    return { ok: true, value: value.data };
  } catch (error) {
    if (isAppError(error)) throw error;
    return { ok: false, detail: error instanceof FlagEvaluationError ? error.message : GENERIC_DETAIL, cause: error };
  }
}
