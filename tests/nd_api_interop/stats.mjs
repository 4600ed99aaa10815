// The per-row min/max stats of a variable (`__stats__:<variable>`), computed from nd JSON rows
// the way lance-nd's writer defines them: null and NaN values are not counted; a row without
// the variable has a null stats struct; a row with no counted value has null min and max.
// Values are compared in the value type's order (64-bit integers and timestamps exactly,
// strings and binary by bytes).

/** Value types every stats-writing table must have stats for. */
export function isStatsType(type) {
  return /^(u?int(8|16|32|64)|float(32|64)|utf8|date(32|64)|timestamp\[.*\]|duration\[.*\])$/.test(type);
}

const kExact = /^(u?int64|date64|timestamp\[.*\]|duration\[.*\])$/;

function comparator(type) {
  if (kExact.test(type)) return (a, b) => { const x = BigInt(a); const y = BigInt(b); return x < y ? -1 : x > y ? 1 : 0; };
  if (/utf8|binary/.test(type)) {
    const bytes = (s) => (type === "binary" ? Buffer.from(s, "hex") : Buffer.from(s, "utf8"));
    return (a, b) => Buffer.compare(bytes(a), bytes(b));
  }
  const num = (x) => (x === "Infinity" ? Infinity : x === "-Infinity" ? -Infinity : x);
  return (a, b) => num(a) - num(b);
}

/**
 * The stats of one row's variable `arr` (nd JSON, or undefined when the row lacks it) as
 * LanceDB's read of the stats column is described: null for a null struct, {} when min and
 * max are null, else { min: {type, value}, max: {type, value} }.
 */
export function expectedStats(arr, type) {
  if (!arr) return null;
  const counted = arr.values.filter((v) => v !== null && v !== "NaN");
  if (counted.length === 0) return {};
  const sorted = [...counted].sort(comparator(type));
  return { max: { type, value: sorted.at(-1) }, min: { type, value: sorted[0] } };
}
