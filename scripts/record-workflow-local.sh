#!/bin/bash
# The record workflow's steps (.github/workflows/record.yml) run on this machine on a small range: the
# plan, each slice counted as a matrix job counts it, the slices joined, the new steps bisected and timed,
# the newest releases timed side by side, and the page. Only the git branch and Pages are left out.
#   scripts/record-workflow-local.sh <work dir> [node-mysql2 clone] [--no-timed]
# mysql2 from 3.24.3 (its repository for bisect when given) and mysql from 2.18.0; --no-timed leaves
# the timed parts to a later run of the same script, on a quiet machine.
set -euo pipefail
work=${1:?usage: scripts/record-workflow-local.sh <work dir> [node-mysql2 clone]}
repo=${2:-}
timed=${3:-}
bench=(node "$(cd "$(dirname "$0")/.." && pwd)/bin/mysql-driver-bench.js")
mkdir -p "$work" && cd "$work"
declare -A FROM=([mysql2]=3.24.3 [mysql]=2.18.0)

echo "== plan"
for driver in mysql2 mysql; do
  "${bench[@]}" record "$driver" --dir record --from "${FROM[$driver]}" --plan 2 > "plan-$driver.json"
  cat "plan-$driver.json"
done

echo "== count: one matrix job per slice"
node -e 'for (const f of process.argv.slice(1)) for (const s of JSON.parse(require("fs").readFileSync(f, "utf8")).include) console.log(s.driver, s.from, s.to)' plan-*.json |
while read -r driver from to; do
  started=$(date +%s)
  "${bench[@]}" record "$driver" --from "$from" --to "$to" --dir "slices/slice-$driver-$from-$to" --no-timed
  echo "slice $driver $from..$to: $(( $(date +%s) - started )) s"
done

echo "== publish"
"${bench[@]}" record --dir record --no-count --merge slices/*/*.json
"${bench[@]}" record mysql2 --dir record --from "${FROM[mysql2]}" ${repo:+--repo "mysql2=$repo"} $timed
"${bench[@]}" record mysql --dir record --from "${FROM[mysql]}" --site site $timed
ls -l record site
