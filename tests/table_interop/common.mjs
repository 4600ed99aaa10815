// Shared helpers of the table interop scripts: running the C++ tool, reading both sides' rows of
// every version and tag and comparing them. The generic oracle helpers (Arrow and LanceDB
// loading, argument parsing, row comparison) come from interop/lance_oracle.mjs and are
// re-exported here.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import {
  arrow, checkPlantedDifferences, firstDifference, rowsOf, schemaText,
} from "../../interop/lance_oracle.mjs";

export * from "../../interop/lance_oracle.mjs";

export class Unavailable extends Error {}

// Run the C++ tool; exit code 3 = the operation's API is not in this build.
export function tool(toolPath, args) {
  try {
    return execFileSync(toolPath, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  } catch (e) {
    if (e.status === 3) throw new Unavailable(`${args[0]}: ${String(e.stderr).trim()}`);
    throw new Error(`tool ${args.join(" ")} failed (exit ${e.status}):\n${e.stderr}${e.stdout}`);
  }
}

// Our rows of one version (or tag) of a table, through `dump`.
export function ourTable(toolPath, tableDir, work, { version, tag, rowaddr } = {}) {
  const out = path.join(work, `dump_${process.pid}_${Math.random().toString(36).slice(2)}.arrow`);
  const args = ["dump", tableDir, out];
  if (version !== undefined) args.push("--version", String(version));
  if (tag !== undefined) args.push("--tag", tag);
  if (rowaddr) args.push("--rowaddr");
  tool(toolPath, args);
  const t = arrow.tableFromIPC(fs.readFileSync(out));
  fs.rmSync(out);
  return t;
}

export function ourVersions(toolPath, tableDir) {
  return tool(toolPath, ["versions", tableDir]).split("\n").filter((s) => s).map(Number);
}

// LanceDB's rows of one version (number or tag name) of an open table.
export async function lanceTable(tbl, version) {
  await tbl.checkout(version);
  const t = await tbl.query().toArrow();
  await tbl.checkoutLatest();
  return t;
}

// Every version and every tag of the table at `dir`, open in LanceDB as `tbl`: the version lists
// must be equal, and LanceDB's reading of each version and tag must equal ours (schema and rows).
// `reference` names whose rows are the expected ones in messages: "lance" or "ours".
// Returns { versions, tags, comparisons }.
export async function compareEveryVersion(tbl, toolPath, dir, work, step, reference = "lance") {
  const theirVersions = (await tbl.listVersions()).map((v) => v.version);
  const ours = ourVersions(toolPath, dir);
  if (JSON.stringify(theirVersions) !== JSON.stringify(ours)) {
    throw new Error(`${step}: versions differ: Lance ${theirVersions}, lance-nd ${ours}`);
  }
  const targets = theirVersions.map((v) => ({ version: v, label: `v${v}` }));
  const tags = await (await tbl.tags()).list();
  for (const name of Object.keys(tags)) targets.push({ tag: name, label: `tag ${name}` });
  let comparisons = 0;
  for (const t of targets) {
    const label = `${step}, ${t.label}`;
    const theirs = await lanceTable(tbl, t.version ?? t.tag);
    const mine = ourTable(toolPath, dir, work, t);
    if (schemaText(theirs.schema) !== schemaText(mine.schema)) {
      throw new Error(`${label}: schemas differ\n  Lance    ${schemaText(theirs.schema)}\n  lance-nd ${schemaText(mine.schema)}`);
    }
    const lanceRef = reference === "lance";
    const expected = rowsOf(lanceRef ? theirs : mine);
    checkPlantedDifferences(expected, label);
    const problem = firstDifference(expected, rowsOf(lanceRef ? mine : theirs),
                                    lanceRef ? label : `${label} (expected = lance-nd)`);
    if (problem) throw new Error(problem);
    ++comparisons;
  }
  return { versions: theirVersions.length, tags: Object.keys(tags).length, comparisons };
}
