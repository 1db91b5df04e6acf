#!/bin/sh
# nook's stand-in for Oils' spec/bin/read_from_fd.py: for each file
# descriptor named, "N: " and what it reads from it.
for fd in "$@"; do
  printf '%s: ' "$fd"
  eval "cat <&$fd"
done
