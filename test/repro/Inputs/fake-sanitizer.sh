#!/bin/sh
# Stands in for compute-sanitizer: racecheck reports a race between lines 32
# and 34 of bad.cu (none with FAKE_SANITIZER_CLEAN set), the other tools
# nothing.
tool=$2
prog=$3
echo "========= COMPUTE-SANITIZER"
"$prog"
if [ "$tool" = racecheck ] && [ -z "$FAKE_SANITIZER_CLEAN" ]; then
  echo "========= Error: Race reported between Write access at shiftAdd(int, const float *, float *)+0x90 in /src/bad.cu:32"
  echo "=========     and Read access at shiftAdd(int, const float *, float *)+0xb0 in /src/bad.cu:34 [512 hazards]"
  echo "========= "
  echo "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"
else
  echo "========= ERROR SUMMARY: 0 errors"
fi
