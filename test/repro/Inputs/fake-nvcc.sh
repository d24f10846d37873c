#!/bin/sh
# Stands in for nvcc where there is no GPU: "builds" a program that says what
# the reproducer says when its kernel runs.
while [ $# -gt 0 ]; do
  if [ "$1" = "-o" ]; then out=$2; shift; fi
  shift
done
printf '#!/bin/sh\necho "cuda-tidy-repro: device NVIDIA H200"\necho "cuda-tidy-repro: kernel finished"\n' > "$out"
chmod +x "$out"
