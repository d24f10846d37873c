"""Writes DIR/build/compile_commands.json for COUNT empty CUDA files
DIR/src/unit<i>.cu, in the order given (--reverse: the last first)."""

import argparse
import json
import os

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("count", type=int)
parser.add_argument("--reverse", action="store_true")
args = parser.parse_args()
os.makedirs(os.path.join(args.dir, "src"), exist_ok=True)
os.makedirs(os.path.join(args.dir, "build"), exist_ok=True)
entries = []
for i in range(args.count):
    source = os.path.join(args.dir, "src", "unit%d.cu" % i)
    open(source, "w").close()
    entries.append({"directory": os.path.join(args.dir, "build"),
                    "arguments": ["clang++", "-c", source],
                    "file": source})
if args.reverse:
    entries.reverse()
with open(os.path.join(args.dir, "build", "compile_commands.json"), "w") as out:
    json.dump(entries, out, indent=1)
