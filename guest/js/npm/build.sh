#!/usr/bin/env bash
# Rebuilds guest/js/vendor_*.js from the npm packages pinned in package.json
# and package-lock.json. The bundles are committed, so building nook needs no
# npm; run this only to change a package's version.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --ignore-scripts
go run build.go
rm -rf node_modules
