#!/usr/bin/env bash
# Several writer processes append to one table at the same time; then the table is verified.
# usage: run_concurrency.sh --tool TOOL --work DIR [--writers N] [--commits C] [--rows R]
#                           [--lance-writers L] [--creator ours|lance] [--node NODE]
#                           [--backoff-slot-ms MS]  (our writers' CommitOptions.backoff_slot)
# Writers 1..N are ours (table_writer_tool), writers 101..100+L are Lance 12 (lance_rows.mjs).
# Checks (table_writer_tool verify + Lance's own read when node is given):
#  - every writer process exits 0 (ours retry on retryable CommitConflict, Lance's adds must all
#    succeed: none may fail because of us);
#  - versions contiguous 1..N, every logged commit present exactly once and complete, nothing
#    else, each version adds exactly one commit (VerifyRowsTable);
#  - Lance reads exactly the same rows as we do (sorted key dumps compared).
set -u
here=$(cd "$(dirname "$0")" && pwd)
tool="" work="" writers=4 commits=10 rows=20 lance_writers=0 creator=ours node=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tool) tool=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --writers) writers=$2; shift 2 ;;
    --commits) commits=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --lance-writers) lance_writers=$2; shift 2 ;;
    --creator) creator=$2; shift 2 ;;
    --node) node=$2; shift 2 ;;
    --backoff-slot-ms) export TABLE_WRITER_BACKOFF_SLOT_MS=$2; shift 2 ;;
    *) echo "unknown argument $1"; exit 2 ;;
  esac
done
[ -n "$tool" ] && [ -n "$work" ] || { echo "need --tool and --work"; exit 2; }
if [ "$lance_writers" -gt 0 ] || [ "$creator" = lance ]; then
  [ -n "$node" ] || { echo "Lance writers need --node"; exit 2; }
fi
rm -rf "$work" && mkdir -p "$work"
table="$work/t.lance"
creator_rows=5

if [ "$creator" = lance ]; then
  "$node" "$here/lance_rows.mjs" create "$table" $creator_rows || { echo "FAIL: Lance create"; exit 1; }
else
  "$tool" create "$table" $creator_rows || { echo "FAIL: create"; exit 1; }
fi

export TABLE_WRITER_GO="$work/go"  # start barrier: every writer waits for this file
pids=() names=() claims=()
for w in $(seq 1 "$writers"); do
  "$tool" append "$table" "$w" "$commits" "$rows" "$work/w$w.log" >"$work/w$w.out" 2>&1 &
  pids+=($!) names+=("ours-$w") claims+=("$w:$work/w$w.log:$rows")
done
for l in $(seq 1 "$lance_writers"); do
  w=$((100 + l))
  "$node" "$here/lance_rows.mjs" append "$table" "$w" "$commits" "$rows" "$work/w$w.log" \
    >"$work/w$w.out" 2>&1 &
  pids+=($!) names+=("lance-$w") claims+=("$w:$work/w$w.log:$rows")
done
# Release the writers together once all are ready (Node needs ~1 s to load LanceDB).
total=$((writers + lance_writers))
for _ in $(seq 1 1200); do
  [ "$(ls "$work" | grep -c '^go\.ready\.')" -ge "$total" ] && break
  sleep 0.1
done
touch "$work/go"
status=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    echo "FAIL: writer ${names[$i]} failed:"; cat "$work/w${names[$i]#*-}.out"; status=1
  else
    echo "writer ${names[$i]}: $(tail -n 1 "$work/w${names[$i]#*-}.out")"
  fi
done

# How much the writers' commits interleaved (versions in order, one letter per writer kind).
order=$(for f in "$work"/w*.log; do
          w=$(basename "$f" .log); awk -v w="${w#w}" '{print $3, (w > 100 ? "L" : "o")}' "$f"
        done | sort -n | awk '{printf "%s", $2}')
switches=$(echo "$order" | fold -w1 | uniq | wc -l)
echo "commit order (o = lance-nd, L = Lance): $order ($switches runs)"
if [ "$lance_writers" -gt 0 ] && [ "$writers" -gt 0 ] && [ "$switches" -lt 3 ]; then
  echo "WARNING: lance-nd and Lance commits barely interleaved"
fi
# Contention: most attempts one of our commits needed; slowest Lance add (retries included;
# Lance 12 gives up on an add after 30 s of retries).
ours_max=$(cat "$work"/w[0-9].log "$work"/w[0-9][0-9].log 2>/dev/null | awk '$4 > m {m = $4} END {print m + 0}')
lance_ms=$(cat "$work"/w1[0-9][0-9].log 2>/dev/null | awk '$5 > m {m = $5} END {print m + 0}')
lance_slow=$(cat "$work"/w1[0-9][0-9].log 2>/dev/null | awk '$5 > 5000 {n++} END {print n + 0}')
echo "contention: lance-nd max attempts $ours_max; Lance slowest add ${lance_ms} ms, adds over 5 s: $lance_slow; elapsed ${SECONDS} s"

echo "verify (lance-nd):"
"$tool" verify "$table" $creator_rows --dump "$work/ours.keys" "${claims[@]}" || status=1
expected=$((creator_rows + (writers + lance_writers) * commits * rows))
if [ -f "$work/ours.keys" ]; then
  got=$(wc -l <"$work/ours.keys")
  if [ "$status" -eq 0 ] && [ "$got" -ne "$expected" ]; then
    echo "FAIL: $got rows, expected $expected (all writers succeeded)"; status=1
  fi
fi
if [ -n "$node" ]; then
  echo "verify (Lance 12 reads the same rows):"
  if "$node" "$here/lance_rows.mjs" dump "$table" "$work/lance.keys"; then
    if ! cmp -s "$work/ours.keys" "$work/lance.keys"; then
      echo "FAIL: Lance reads other rows than lance-nd:"
      diff "$work/ours.keys" "$work/lance.keys" | head -20; status=1
    fi
  else
    echo "FAIL: Lance cannot read the table"; status=1
  fi
fi
[ "$status" -eq 0 ] && echo "PASS: $((writers + lance_writers)) writers x $commits commits x $rows rows, $expected rows"
exit $status
