// Where Lance 12 (LanceDB 0.39) errors on a filter that lance-nd runs, and what the
// differential checks instead (README.md, "Lance 12 defects found"). A Lance error is one of
// these classes or the run fails; every class must be met in a run or the run fails (Lance
// changed, or the generator stopped producing the case).
//
// `alt`: how the right rows are known. "alt" - the filter's Lance-friendly twin (filter_gen.mjs
// gives it: a cast, TRY_CAST, NULLIF, STRING, an integer expression), run by Lance; "twin" -
// the same filter on the undotted twin table; "compacted" - the same filter after Lance
// compacted the table. `oursMayError`: lance-nd may reject the filter too (a choice SQL
// engines differ on) instead of returning the alt's rows.
export const kKnown = [
  {
    name: "literal_not_coerced",
    what: "an integer column (or integer arithmetic) compared with a fractional literal, and the " +
      "literal -9223372036854775808 (read as a float): Lance refuses to plan the filter",
    error: /Received literal (Float64|Int64)\(.*\) and could not convert to literal of type/,
    alt: "alt", oursMayError: false,
  },
  {
    name: "varchar_type_name",
    what: "CAST(x AS VARCHAR): Lance's SQL front end knows STRING, not VARCHAR",
    error: /Unsupported data type: Varchar/,
    alt: "alt", oursMayError: false,
  },
  {
    name: "cast_out_of_range",
    what: "CAST of NaN, an infinity or an out-of-range value to an integer type fails the whole " +
      "scan at run time (TRY_CAST gives a null)",
    error: /Cast error: Can't cast value/,
    alt: "alt", oursMayError: true,
  },
  {
    name: "integer_division_by_zero",
    what: "integer / or % by a column holding 0 fails the whole scan at run time",
    error: /Divide by zero error/,
    alt: "alt", oursMayError: true,
  },
  {
    name: "dotted_top_level_name",
    what: "a top-level field whose name has a dot (a variable `a.b`): createTable refuses it, " +
      "and on a table that has one every query fails, filtered or not",
    error: /Top level field .* cannot contain `\.`/,
    alt: "twin", oursMayError: false,
  },
  {
    name: "struct_child_added_before_compaction",
    what: "a filter on a struct that gained a child (addColumns) after rows were written, " +
      "until the table is compacted",
    error: /projection supplied fewer column indices than its fields require/,
    alt: "compacted", oursMayError: false,
  },
];

/** The class of a Lance error message, or null. */
export function classify(message) {
  return kKnown.find((k) => k.error.test(message)) ?? null;
}
