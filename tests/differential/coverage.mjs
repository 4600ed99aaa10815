// The coverage table of page shapes: which (layout x encoding x nullability) combinations, with
// which logical types, appeared in the data files each writer produced and lance-nd decoded.
// Input: page records of differential_tool pages, tagged with the writer ("lance" or "ours").

// What the layout's options say beyond its name: mini-block chunk grammar (u32 sizes:
// "large chunks") and repetition index; full-zip control-word bits; constant-page levels
// compressed or raw.
function layoutFeatures(p) {
  const f = [];
  const l = p.layout;
  if (l.startsWith("mini-block")) {
    f.push(l.includes(" large_chunks") ? "u32 chunks" : "u16 chunks");
    if (/ rep_index_depth=/.test(l)) f.push("rep index");
  } else if (l.startsWith("full-zip")) {
    const bits = Number((l.match(/bits_rep=(\d+)/) || [, 0])[1]) + Number((l.match(/bits_def=(\d+)/) || [, 0])[1]);
    f.push(`control word ${bits} bits`);
  } else if (l.startsWith("constant") && (/ rep=| def=/.test(l) || p.buffers > 1)) {
    f.push(/ rep=| def=/.test(l) ? "levels compressed" : "levels raw");
  }
  return f.length ? ` (${f.join(", ")})` : "";
}

// Our reader's description of a constant page says where its value is: "value=N bytes" (inline
// in the layout), "value=buffer 0" (a value too large to inline, such as a string, in a buffer
// of its own ahead of the levels) or "all-null".
function constantValue(layout) {
  if (layout.includes(" value=buffer 0")) return "value in buffer 0";
  return layout.includes(" value=") ? "inline value" : "no value (all null)";
}

// "mini-block layers=[...] rep=ENC def=ENC values=ENC dictionary[N]=ENC items=..." -> the parts
// of the key: layout, value encoding, layers, logical type; and the level encodings.
export function pageShape(p) {
  const layout = p.layout.split(" ")[0] + layoutFeatures(p);
  const layers = (p.layout.match(/layers=\[([^\]]*)\]/) || [, ""])[1];
  const part = (name) => (p.layout.match(new RegExp(` ${name}=(.*?)(?= rep=| def=| values=| dictionary\\[| items=| visible=|$)`)) || [])[1];
  let encoding;
  if (layout.startsWith("constant")) {
    encoding = constantValue(p.layout);
  } else {
    encoding = part("values") ?? "?";
    const dict = p.layout.match(/ dictionary\[\d+\]=(.*?)(?= items=|$)/);
    if (dict) encoding = `dictionary(indices ${encoding}, items ${dict[1]})`;
    const offsets = p.layout.match(/bits_per_offset=(\d+)/);
    if (layout.startsWith("full-zip")) encoding += offsets ? `, variable-width (${offsets[1]}-bit lengths)` : ", fixed-width";
  }
  encoding = encoding.replace(/constant\(\d+ bytes\)/g, "constant(N bytes)");
  const levels = [["rep", part("rep")], ["def", part("def")]].filter(([, e]) => e)
    .map(([k, e]) => `${k} ${e.replace(/x\d+$/, "")}`);
  const type = p.type.replace(/^fixed_size_binary:\d+/, "fixed_size_binary")
    .replace(/^fixed_size_list:(.*):\d+$/, "fixed_size_list<$1>")
    .replace(/^timestamp:(\w+):.*$/, "timestamp:$1");
  return { layout, encoding, layers: layers || "(none)", type, levels };
}

// An encoding with its numbers folded to N, except a top-level flat width ("flat(32)") and the
// names lz4 and zstd: one "family" per encoding tree.
export function foldNumbers(e) {
  if (e.startsWith("value in buffer")) return e;
  const flat = e.match(/^flat\((\d+)\)/);
  const folded = e.replace(/\((\d+)\)/g, "(N)").replace(/(?<!lz)\d+/g, "N").replace(/:N\b/g, "");
  return flat ? folded.replace(/^flat\(N\)/, `flat(${flat[1]})`) : folded;
}

// Several coverage JSON files (run.mjs --coverage-json) as one: counts added up.
export function mergeCoverageJson(files) {
  const out = { pages: [], levels: {}, multiPageColumns: {}, bySeed: {} };
  const rows = new Map();
  const add = (into, counts) => { for (const [k, n] of Object.entries(counts)) into[k] = (into[k] || 0) + n; };
  for (const j of files) {
    for (const r of j.pages) {
      const key = `${r.layout}\t${r.encoding}\t${r.layers}`;
      if (!rows.has(key)) rows.set(key, { ...r, counts: {}, types: {} });
      add(rows.get(key).counts, r.counts);
      add(rows.get(key).types, r.types);
    }
    for (const [k, c] of Object.entries(j.levels)) add(out.levels[k] ??= {}, c);
    add(out.multiPageColumns, j.multiPageColumns);
    Object.assign(out.bySeed, j.bySeed);
  }
  out.pages = [...rows.values()];
  return out;
}

export class Coverage {
  constructor() {
    this.rows = new Map();
    this.levels = new Map();  // "layout: rep|def ENC" -> {counts}
    this.multiPageColumns = {};  // "writer version" -> columns (of one file) with several pages
  }

  // Counts the pages; returns the set of shape keys (layout, encoding, layers, type) they hit.
  add(writer, version, pages) {
    const keys = new Set();
    const perColumn = new Map();
    for (const p of pages) perColumn.set(`${p.file}#${p.column}`, (perColumn.get(`${p.file}#${p.column}`) || 0) + 1);
    const multi = [...perColumn.values()].filter((n) => n > 1).length;
    this.multiPageColumns[`${writer} ${version}`] = (this.multiPageColumns[`${writer} ${version}`] || 0) + multi;
    for (const p of pages) {
      const s = pageShape(p);
      const key = `${s.layout}\t${s.encoding}\t${s.layers}`;
      keys.add(`${key}\t${s.type}`);
      let row = this.rows.get(key);
      if (!row) this.rows.set(key, row = { ...s, counts: {}, types: new Map() });
      const col = `${writer} ${version}`;
      row.counts[col] = (row.counts[col] || 0) + 1;
      for (const l of s.levels) {
        const lk = `${s.layout.split(" ")[0]}\t${l}`;
        if (!this.levels.has(lk)) this.levels.set(lk, {});
        const lc = this.levels.get(lk);
        lc[col] = (lc[col] || 0) + 1;
      }
      if (writer !== "ours") row.types.set(s.type, (row.types.get(s.type) || 0) + 1);
      else if (!row.types.has(s.type)) row.types.set(s.type, 0);
    }
    return keys;
  }

  toJSON() {
    return {
      pages: [...this.rows.values()].map((r) => ({ ...r, types: Object.fromEntries(r.types) })),
      levels: Object.fromEntries(this.levels),
      multiPageColumns: this.multiPageColumns,
    };
  }

  // Markdown: one row per (layout, encoding, nullability layers), with the pages each writer
  // produced and the logical types (with Lance 12 page counts; "ours only" when 0). The
  // "failed" columns count the pages of the columns lance-nd failed to read in Lance 12's files
  // (as its error names them).
  toMarkdown() {
    const cols = ["lance 2.1", "lance 2.2", "ours 2.1", "ours 2.2", "failed 2.1", "failed 2.2"];
    const lines = [
      `| layout | encoding | layers (nullability) | ${cols.join(" | ")} | logical types (Lance 12 pages) |`,
      `|---|---|---|${cols.map(() => "--:").join("|")}|---|`,
    ];
    const sorted = [...this.rows.values()].sort((a, b) =>
      (a.layout + a.encoding + a.layers).localeCompare(b.layout + b.encoding + b.layers));
    for (const r of sorted) {
      const types = [...r.types].sort((a, b) => b[1] - a[1])
        .map(([t, n]) => (n ? `${t} ${n}` : `${t} (ours only)`)).join(", ");
      const esc = (s) => s.replace(/\|/g, "\\|");
      lines.push(`| ${r.layout} | \`${esc(r.encoding)}\` | ${r.layers} | ${cols.map((c) => r.counts[c] || 0).join(" | ")} | ${esc(types)} |`);
    }
    lines.push("", `Columns stored as several pages in one file: ${cols.map((c) => `${c} ${this.multiPageColumns[c] || 0}`).join(", ")}.`);
    lines.push("", "Level (rep/def) encodings:", "",
      `| layout | levels | ${cols.join(" | ")} |`, `|---|---|${cols.map(() => "--:").join("|")}|`);
    for (const [k, counts] of [...this.levels].sort()) {
      const [layout, enc] = k.split("\t");
      lines.push(`| ${layout} | \`${enc}\` | ${cols.map((c) => counts[c] || 0).join(" | ")} |`);
    }
    return lines.join("\n") + "\n";
  }
}
