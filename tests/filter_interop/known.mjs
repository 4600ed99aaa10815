// Where Lance 12 (LanceDB 0.39) errors on a filter that lance-nd runs, and what the
// differential checks instead (README.md, "Lance 12 defects found"). A Lance error is one of
// these classes or the run fails; every class must be met in a run or the run fails (Lance
// changed, or the generator stopped producing the case).
//
// `alt`: how the right rows are known ("none": not known, lance-nd's answer is not checked). "alt" - the filter's Lance-friendly twin (filter_gen.mjs
// gives it: a cast, TRY_CAST, NULLIF, STRING, an integer expression), run by Lance; "twin" -
// the same filter on the undotted twin table; "compacted" - the same filter after Lance
// compacted the table. `oursMayError`: lance-nd may reject the filter too (a choice SQL
// engines differ on) instead of returning the alt's rows; it may also where the filter carries
// `tag` but Lance failed on something else first. `rare`: the run need not meet it.
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
    alt: "alt", oursMayError: true, tag: "to_varchar",
  },
  {
    name: "cast_out_of_range",
    what: "CAST of NaN, an infinity or an out-of-range value to an integer type fails the whole " +
      "scan at run time (TRY_CAST gives a null)",
    error: /Cast error: Can't cast value/,
    alt: "alt", oursMayError: true, tag: "lossy_cast",
  },
  {
    name: "integer_division_by_zero",
    what: "integer / or % by a column holding 0 fails the whole scan at run time",
    error: /Divide by zero error/,
    alt: "alt", oursMayError: true, tag: "integer_division_by_column",
  },
  {
    name: "integer_overflow",
    what: "integer arithmetic that overflows (-9223372036854775808 / -1) fails the whole scan " +
      "at run time; the right rows are not known, lance-nd's answer is not checked",
    error: /Arithmetic overflow/,
    alt: "none", oursMayError: true, rare: true,
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

/** Whether lance-nd may reject `filter` (a class's tag it carries). */
export function oursMayReject(filter) {
  return kKnown.some((k) => k.tag && k.oursMayError && filter.tags?.includes(k.tag));
}

/** The class of a Lance error message, or null. */
export function classify(message) {
  return kKnown.find((k) => k.error.test(message)) ?? null;
}

// Where lance-nd's filter engine does not yet give Lance's answer (README.md, "Open lance-nd
// differences"). A mismatch in a filter carrying the tag is reported and counted, not failed;
// remove an entry once the engine is fixed.
export const kPending = [
  {
    name: "float_to_string",
    tag: "float_to_string",
    what: "CAST(float AS STRING): Lance (Arrow) writes integral floats as '6.0' and large ones " +
      "in full; lance-nd writes '6' and exponents",
  },
  {
    name: "integer_cast_narrowing",
    tag: "integer_cast_narrowing",
    what: "CAST(integer AS INT/BIGINT) compared with a literal: Lance unwraps the cast and " +
      "compares the original values; lance-nd fails the filter when a value is out of range",
  },
  {
    name: "wide_integer_arithmetic",
    tag: "wide_integer_arithmetic",
    what: "arithmetic mixing uint64 with signed integers, or int64 with floats: Lance computes " +
      "in a wider type (no wrap-around near 2^63 / 2^64); lance-nd's results differ",
  },
  {
    name: "error_in_excluded_rows",
    tag: "integer_division_by_column",
    problem: /divide by zero/,
    what: "an integer division by zero (or a failing cast, next entry) in a row another AND / " +
      "OR operand already decides: Lance does not evaluate it there; lance-nd fails the filter",
  },
  { name: "error_in_excluded_rows", tag: "lossy_cast", problem: /lance-nd failed: .*cannot cast/ },
  {
    name: "float32_against_integer_literal",
    tag: "to_float",
    problem: /rows differ/,
    what: "a FLOAT (float32) value against an integer literal that float32 cannot hold exactly: " +
      "Lance casts the literal to float32 first, lance-nd compares exactly",
  },
];

/** The pending lance-nd difference a filter's mismatch (`problem`) may be, or null. */
export function pendingOf(filter, problem) {
  return kPending.find((p) => filter.tags.includes(p.tag) && (!p.problem || p.problem.test(problem))) ?? null;
}
