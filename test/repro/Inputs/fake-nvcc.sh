#!/bin/sh
# Stands in for nvcc where there is no GPU: "builds" a program that says what
# the reproducer says when its kernel runs.
while [ $# -gt 0 ]; do
  if [ "$1" = "-o" ]; then out=$2; shift; fi
  shift
done
# A lane-check reproducer also says that lanes were missing at the
# collective's line, as the shuffles of the runtime tests do on the H200.
line=$(sed -n 's/.*"collective_line": \([0-9]*\).*/\1/p' "$(dirname "$out")/finding.json" 2>/dev/null | head -n 1)
lanes=
[ -z "$line" ] || lanes="echo \"cuda-tidy-lanes: line $line: in 5 warps only 8 of the 32 lanes of mask 0xffffffff reached it (0x000000ff)\"\n"
printf '#!/bin/sh\necho "cuda-tidy-repro: device NVIDIA H200"\n'"$lanes"'echo "cuda-tidy-repro: kernel finished"\n' > "$out"
chmod +x "$out"
