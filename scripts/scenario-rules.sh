#!/bin/sh
# The project's scenarios and the Comprehensive Rules they check, to find gaps quickly (needs jq).
#   scripts/scenario-rules.sh            one line per scenario: file, era, variant, rules
#   scripts/scenario-rules.sh --by-rule  one line per rule: the rule, then the scenario numbers that cite it
#   scripts/scenario-rules.sh --by-rule | grep '^805\.'   which 805 rules have scenarios
set -eu
cd "$(dirname "$0")/../scenarios"
if [ "${1:-}" = "--by-rule" ]; then
  for f in *.json; do
    jq -r --arg n "${f%%-*}" '(.rules // [])[] | "\(.)\t\($n)"' "$f"
  done | sort -t "$(printf '\t')" -k1,1V -k2,2n | awk -F '\t' '
    $1 != rule { if (rule != "") print rule "\t" files; rule = $1; files = $2; next }
    { files = files " " $2 }
    END { if (rule != "") print rule "\t" files }'
else
  for f in *.json; do
    jq -r --arg f "$f" '"\($f | .[0:48])\t\(.setup.rules // "current")\t\(.setup.variant // "-")\t\((.rules // []) | join(" "))"' "$f"
  done | sort -n
fi
