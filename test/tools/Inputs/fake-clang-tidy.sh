#!/bin/sh
# A clang-tidy that analyses nothing: for each run it reports one warning on
# the file it was given, so that a test sees which files a run analysed.
for Arg in "$@"; do
  case "$Arg" in
    --version) echo "fake clang-tidy"; exit 0 ;;
    *.cu) File="$Arg" ;;
  esac
done
echo "$File:1:1: warning: analysed [fake-analysed]"
