// Lance 12 (LanceDB 0.39) side of the table concurrency test. TABLE is "<db dir>/<name>.lance".
//   node lance_rows.mjs create TABLE ROWS
//   node lance_rows.mjs append TABLE WRITER_ID N_COMMITS ROWS_PER_COMMIT LOG
//       `table.add` in a loop; after each success appends "ok <commit> <version> - <ms>" to LOG
//       (<ms>: how long that add took, retries included; Lance does not tell its attempts).
//       Any failed add exits 1 (Lance's own writes must never fail because of our writers).
//   node lance_rows.mjs dump TABLE OUT
//       reads every row with Lance, checks each payload, writes sorted "writer,commit,row".
import fs from "node:fs";
import {
  arrow, lancedb, splitTablePath, storageOptions,
} from "../../interop/lance_oracle.mjs";

const { Field, Int32, Int64, Utf8, Schema } = arrow;
const schema = new Schema([
  new Field("writer", new Int32(), true),
  new Field("commit", new Int64(), true),
  new Field("row", new Int32(), true),
  new Field("payload", new Utf8(), true),
]);

function payload(w, c, r) {
  let s = `w${w}-c${c}-r${r}-`;
  while (s.length < 48) s += String.fromCharCode(97 + (s.length % 26));
  return s;
}
function rows(w, c, n) {
  return Array.from({ length: n }, (_, r) => ({ writer: w, commit: BigInt(c), row: r,
    payload: payload(w, c, r) }));
}
const [cmd, table, ...rest] = process.argv.slice(2);
const { db: dbDir, name } = splitTablePath(table);
const db = await lancedb.connect(dbDir);

if (cmd === "create") {
  const t = await db.createTable(name, rows(0, 0, Number(rest[0])), {
    mode: "create", schema, storageOptions });
  console.log(JSON.stringify({ version: await t.version() }));
} else if (cmd === "append") {
  const [writer, commits, perCommit, log] = rest.map((x, i) => (i < 3 ? Number(x) : x));
  const t = await db.openTable(name);
  const go = process.env.TABLE_WRITER_GO;  // start barrier, as in table_writer_tool
  if (go) {
    fs.writeFileSync(`${go}.ready.${writer}`, "\n");
    const deadline = Date.now() + 120000;
    while (!fs.existsSync(go) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
  }
  let failures = 0;
  for (let c = 0; c < commits; ++c) {
    const started = Date.now();
    try {
      await t.add(rows(writer, c, perCommit));
      fs.appendFileSync(log, `ok ${c} ${await t.version()} - ${Date.now() - started}\n`);
    } catch (e) {
      failures++;
      console.error(`lance writer ${writer} commit ${c} FAILED after ${Date.now() - started} ms: ` +
                    e.message);
      break;  // later commits would leave a gap in the log
    }
  }
  console.log(JSON.stringify({ writer, commits, failures }));
  process.exit(failures === 0 ? 0 : 1);
} else if (cmd === "dump") {
  const t = await db.openTable(name);
  const data = await t.query().toArrow();
  const keys = [];
  const cols = ["writer", "commit", "row", "payload"].map((n) => data.getChild(n));
  for (let i = 0; i < data.numRows; ++i) {
    const [w, c, r, p] = cols.map((col) => col.get(i));
    if (w === null || c === null || r === null || p !== payload(w, c, r)) {
      console.error(`lance read a bad row ${i}: ${w},${c},${r},${p}`);
      process.exit(1);
    }
    keys.push([w, Number(c), r]);
  }
  keys.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  fs.writeFileSync(rest[0], keys.map((k) => k.join(",") + "\n").join(""));
  console.log(JSON.stringify({ version: await t.version(), rows: data.numRows }));
} else {
  console.error("usage: see the header of lance_rows.mjs");
  process.exit(2);
}
