/**
 * What the gateway forwards of a request its contract schema accepted: the client's values, without the
 * keys the schema dropped (unknown keys of an object, at any depth), found by walking the input beside
 * the parsed value. Until 2026-11-26 the raw input was forwarded, so an unknown field of 1.1 MB or of
 * 100,000 nested arrays failed in NATS (a 500).
 *
 * Not the parsed value itself: the service parses the payload again with the same schema, and some
 * schemas read a decimal string into base units (`amount`, `minOrderSize`, fee rates), which would not
 * parse a second time. The client's values keep the wire format the schema was written for.
 */
export function acceptedInput(input: unknown, parsed: unknown): unknown {
  // A value the schema kept whole (z.unknown(), open metadata) is the same object: nothing to walk.
  if (input === parsed) return input;
  if (Array.isArray(input)) {
    return Array.isArray(parsed) && parsed.length === input.length ? input.map((item, i) => acceptedInput(item, parsed[i])) : input;
  }
  if (!isObject(input) || !isObject(parsed)) return input;
  return Object.fromEntries(
    Object.entries(input)
      .filter(([key]) => Object.hasOwn(parsed, key))
      .map(([key, value]) => [key, acceptedInput(value, parsed[key])]),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
