#!/usr/bin/env bash
# Regenerates what the README shows of the examples: each example's output on
# its defaults in docs/output/NAME.txt and its charts in docs/img/.
#
#	bash docs/generate.sh
#
# The outputs are deterministic (seeded) except the ages that examples/catalog
# prints, which count days to today.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p docs/img docs/output
for name in rentorbuy spot hybrid compliance customprovider catalog; do
	go run "./examples/$name" -out docs/img >"docs/output/$name.txt" 2>/dev/null
	echo "docs/output/$name.txt"
done
go run ./examples/hybrid -years 3 >docs/output/hybrid-3y.txt 2>/dev/null
echo docs/output/hybrid-3y.txt
ls docs/img/*.png
